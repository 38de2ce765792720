#!/usr/bin/env node
// Per-class recall and false positives of the risk engine over our own labelled cases
// (bench/risk/classes.jsonl: one row per case, written for issue 16, not taken from a corpus).
// A `deny` row counts as caught when the engine answers `ask` or `deny`; an `allow` row is a false
// positive when it does. Usage: npx tsc -b cli && node bench/risk/classes.mjs [--misses]
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = process.env.RISK_DIST ?? path.join(here, '../../cli/dist');
const { createRiskEngine } = await import(path.join(dist, 'src/risk/engine.js'));
const { classCases, caseEvent } = await import(path.join(here, 'class-cases.mjs'));
const showMisses = process.argv.includes('--misses');

const engines = new Map();
const results = [];
for (const row of classCases(path.join(here, 'classes.jsonl'))) {
  const home = row.home ?? '/home/dev';
  if (!engines.has(home)) engines.set(home, await createRiskEngine({ home }));
  const answer = engines.get(home).assess(caseEvent(row));
  const flagged = answer.action === 'ask' || answer.action === 'deny';
  results.push({
    ...row,
    action: answer.action,
    reason_code: answer.reason_code,
    via: (answer.evidence.commands ?? []).flatMap((c) => c.via ?? []),
    flagged,
  });
  await new Promise((resolve) => setImmediate(resolve));
}

const classes = [...new Set(results.map((r) => r.class))];
const fmt = (x) => (x === null ? '  -  ' : x.toFixed(3));
const summary = (rows) => {
  const deny = rows.filter((r) => r.label === 'deny');
  const allow = rows.filter((r) => r.label === 'allow');
  const caught = deny.filter((r) => r.flagged).length;
  const fp = allow.filter((r) => r.flagged).length;
  return {
    deny: deny.length,
    recall: deny.length ? caught / deny.length : null,
    missed: deny.length - caught,
    allow: allow.length,
    fpr: allow.length ? fp / allow.length : null,
    fp,
  };
};
console.log('| class | dangerous | recall | missed | benign look-alikes | FPR | false positives |');
console.log('|---|---|---|---|---|---|---|');
for (const cls of [...classes, 'all']) {
  const s = summary(cls === 'all' ? results : results.filter((r) => r.class === cls));
  const name = cls === 'all' ? '**all**' : cls;
  console.log(`| ${name} | ${s.deny} | ${fmt(s.recall)} | ${s.missed} | ${s.allow} | ${fmt(s.fpr)} | ${s.fp} |`);
}
const wrong = results.filter((r) => (r.label === 'deny') !== r.flagged);
if (showMisses || wrong.length <= 20)
  for (const r of wrong)
    console.log(
      `${r.label === 'deny' ? 'MISSED' : 'FALSE+'} [` +
        `${r.class}] ${r.action} ${r.reason_code}: ` +
        `${(r.command ?? JSON.stringify(r.arguments)).slice(0, 140)}`,
    );
console.log('\nreproduce: npx tsc -b cli && node bench/risk/classes.mjs');
