// Reads bench/risk/classes.jsonl: rows { class, label, command | generate | tool+arguments, cwd?, home?, note? }.
// `generate` builds a long command ({ head?, unit, count, tail }) so the file stays small.
import { readFileSync } from 'node:fs';

export function classCases(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const row = JSON.parse(line);
      if (row.generate)
        row.command =
          `${row.generate.head ?? ''}${row.generate.unit.repeat(row.generate.count)}` + `${row.generate.tail ?? ''}`;
      return row;
    });
}

export function caseEvent(row) {
  const tool = row.tool ?? 'shell';
  return {
    id: 'case',
    framework: 'cases',
    session_id: 'cases',
    timestamp: '2026-11-23T00:00:00Z',
    cwd: row.cwd ?? '/home/dev/proj',
    tool_name: row.tool_name ?? tool,
    canonical_tool: tool,
    arguments: row.arguments ?? { command: row.command },
  };
}
