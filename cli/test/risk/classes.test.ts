import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import type { ToolCallEvent } from '@agentgov/core';
import { expect } from 'chai';
import { createRiskEngine, type RiskEngine } from '../../src/risk/engine.js';

/**
 * The labelled cases of issue 16's risk classes (bench/risk/classes.jsonl, written for this
 * issue): every dangerous case is answered `ask` or `deny`, every benign look-alike `allow` or
 * `warn`. A row marked `known` is a documented error of the engine: it must still be wrong, so
 * fixing it means updating the file. bench/risk/classes.mjs prints the per-class table.
 */
interface CaseRow {
  class: string;
  label: 'deny' | 'allow';
  command?: string;
  generate?: { head?: string; unit: string; count: number; tail?: string };
  tool?: string;
  tool_name?: string;
  arguments?: Record<string, unknown>;
  cwd?: string;
  home?: string;
  note?: string;
  known?: string;
}

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../bench/risk/classes.jsonl');
const rows = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as CaseRow);

function eventOf(row: CaseRow): ToolCallEvent {
  const command = row.generate
    ? `${row.generate.head ?? ''}${row.generate.unit.repeat(row.generate.count)}${row.generate.tail ?? ''}`
    : row.command;
  const tool = (row.tool ?? 'shell') as ToolCallEvent['canonical_tool'];
  return {
    id: 'case',
    framework: 'test',
    session_id: 's',
    timestamp: '2026-11-23T00:00:00Z',
    cwd: row.cwd ?? '/home/dev/proj',
    tool_name: row.tool_name ?? tool,
    canonical_tool: tool,
    arguments: row.arguments ?? { command },
  };
}

describe('risk classes of issue 16: the labelled cases', function () {
  const engines = new Map<string, RiskEngine>();
  before(async function () {
    // A benign case must be read in full to be judged benign: its engine gets time enough even on a
    // loaded machine (a dangerous case is flagged either way, so it keeps the shipped budget).
    for (const home of new Set(rows.map((r) => r.home ?? '/home/dev'))) {
      engines.set(home, await createRiskEngine({ home }));
      engines.set(`${home} (time enough)`, await createRiskEngine({ home, readTime: { ms: 10_000, wallMs: 60_000 } }));
    }
  });

  it('the file has dangerous cases and benign look-alikes for every class', function () {
    const classes = new Set(rows.map((r) => r.class));
    expect(classes.size).to.be.at.least(10);
    for (const cls of classes) {
      expect(rows.filter((r) => r.class === cls && r.label === 'deny').length, cls).to.be.at.least(6);
      expect(rows.filter((r) => r.class === cls && r.label === 'allow').length, cls).to.be.at.least(2);
    }
  });

  for (const row of rows) {
    const shown = (row.note ?? row.command ?? JSON.stringify(row.arguments)).slice(0, 100);
    it(`[${row.class}] ${row.label === 'deny' ? 'dangerous' : 'benign'}${row.known ? ' (known error)' : ''}: ${shown}`, function () {
      const engine = engines.get(
        `${row.home ?? '/home/dev'}${row.label === 'allow' ? ' (time enough)' : ''}`,
      ) as RiskEngine;
      const answer = engine.assess(eventOf(row));
      const flagged = answer.action === 'ask' || answer.action === 'deny';
      const right = flagged === (row.label === 'deny');
      expect(
        right,
        `${answer.action} ${answer.reason_code} ${JSON.stringify(answer.evidence.rules.map((r) => r.rule_id))}${row.known ? ` — known: ${row.known}` : ''}`,
      ).to.equal(!row.known);
    });
  }
});
