#!/usr/bin/env node
// Risk engine bench: recall on `deny` rows and false-positive rate on `allow` rows of
// risk-commands.jsonl, per category, plus per-command assessment time.
// Usage: node bench/risk/run.mjs [path/to/risk-commands.jsonl] [--plain-cwd DIR]   (after `npx tsc -b cli`)
// --plain-cwd: assess rows that are not context-dependent with this project root instead of none.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const plainAt = args.indexOf('--plain-cwd');
const plainCwd = plainAt >= 0 ? args.splice(plainAt, 2)[1] : '';
const dataFile = args[0] ?? '/work/shared/bench/data/risk-commands.jsonl';
const contexts = JSON.parse(readFileSync(path.join(here, 'contexts.json'), 'utf8'));
const { createRiskEngine } = await import(
  path.join(process.env.RISK_DIST ?? path.join(here, '../../cli/dist'), 'src/risk/engine.js')
);
const engine = await createRiskEngine({ home: contexts.home });

const rows = readFileSync(dataFile, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));

function contextFor(row) {
  const byNote = contexts.unrepresentable_notes.find((n) => row.note && new RegExp(n.pattern).test(row.note));
  if (byNote) return { unrepresentable: byNote.why };
  // No project root implied (default): relative paths stay unplaced.
  if (!row.context_dependent) return { cwd: plainCwd };
  const entry = contexts.rows.find(
    (e) =>
      e.source_path === row.source_path &&
      e.command === row.command &&
      e.label === row.label &&
      (e.note === undefined || e.note === row.note),
  );
  if (entry?.unrepresentable) return { unrepresentable: entry.unrepresentable };
  if (entry?.cwd === 'home') return { cwd: contexts.home };
  return { cwd: contexts.default_project_root };
}

// Warm-up so the first row does not carry parser start-up.
engine.assess({
  id: 'w',
  framework: 'bench',
  session_id: 'b',
  timestamp: '',
  cwd: '/',
  tool_name: 'Bash',
  canonical_tool: 'shell',
  arguments: { command: 'true' },
});

const results = [];
for (const [index, row] of rows.entries()) {
  // tree-sitter frees native memory only when the event loop turns.
  if (index % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
  const context = contextFor(row);
  const event = {
    id: `bench:${index}`,
    framework: 'bench',
    session_id: 'bench',
    timestamp: '2026-01-01T00:00:00Z',
    cwd: context.cwd ?? contexts.default_project_root,
    tool_name: 'Bash',
    canonical_tool: 'shell',
    arguments: { command: row.command },
  };
  const start = performance.now();
  const a = engine.assess(event);
  const ms = performance.now() - start;
  const flagged = a.action === 'ask' || a.action === 'deny';
  const result = {
    index,
    category: row.category,
    label: row.label,
    context_dependent: row.context_dependent,
    cwd: event.cwd,
    unrepresentable: context.unrepresentable ?? null,
    command: row.command,
    action: a.action,
    score: a.score,
    reason_code: a.reason_code,
    rules: a.evidence.rules.map((r) => r.rule_id),
    correct: (row.label === 'deny') === flagged,
    ms: Number(ms.toFixed(3)),
  };
  results.push(result);
  console.log(JSON.stringify(result));
}

function summarize(list) {
  const deny = list.filter((r) => r.label === 'deny');
  const allow = list.filter((r) => r.label === 'allow');
  const caught = deny.filter((r) => r.action === 'ask' || r.action === 'deny').length;
  const fp = allow.filter((r) => r.action === 'ask' || r.action === 'deny').length;
  return {
    deny: deny.length,
    recall: deny.length ? caught / deny.length : null,
    missed: deny.length - caught,
    allow: allow.length,
    fpr: allow.length ? fp / allow.length : null,
    false_positives: fp,
  };
}
const fmt = (x) => (x === null ? '   -  ' : x.toFixed(3));
const scored = results.filter((r) => !r.unrepresentable);
const categories = [...new Set(results.map((r) => r.category))];
console.log('\ncategory                     deny  recall  missed | allow   fpr   fp');
for (const c of [...categories, 'ALL (headline)', 'ALL incl. unrepresentable']) {
  const list =
    c === 'ALL (headline)'
      ? scored
      : c === 'ALL incl. unrepresentable'
        ? results
        : scored.filter((r) => r.category === c);
  const s = summarize(list);
  console.log(
    `${c.padEnd(28)} ${String(s.deny).padStart(4)}  ` +
      `${fmt(s.recall)}  ${String(s.missed).padStart(5)}  | ` +
      `${String(s.allow).padStart(4)}  ${fmt(s.fpr)} ` +
      `${String(s.false_positives).padStart(3)}`,
  );
}
const times = results.map((r) => r.ms).sort((a, b) => a - b);
const pct = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
console.log(
  `\nrows ${results.length}, unrepresentable ` +
    `${results.length - scored.length}; assessment time median ` +
    `${pct(0.5).toFixed(3)} ms, p95 ${pct(0.95).toFixed(3)} ms, max ` +
    `${times.at(-1).toFixed(3)} ms`,
);
const summary = {
  ...summarize(scored),
  all: summarize(results),
  median_ms: pct(0.5),
  p95_ms: pct(0.95),
  rules_loaded: engine.rulesLoaded,
};
console.log(JSON.stringify({ summary }));
console.log(
  `\nreproduce: npx tsc -b cli && node bench/risk/run.mjs ${dataFile}${plainCwd ? ` --plain-cwd ${plainCwd}` : ''}`,
);
