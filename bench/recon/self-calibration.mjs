#!/usr/bin/env node
// Self-calibration of the gate from a repository's whole commit history, as a server would do it: every
// non-merge commit message of 8+ words up to the middle row of each visible set (at most --max of them, newest
// first) is parsed as a task on the repository's newest tree and its word_rarity taken; the UNSAT threshold is a
// low percentile of those. The rates are read, as history-signal.mjs does, on the newer half of the set's rows
// and on the off-topic tasks run against the repository (cooccur-dump.mjs output). Offline measurement only.
// usage: node bench/recon/self-calibration.mjs [--dump FILE] [--max 2000]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadSet } from './data.mjs';
import { inCommitOrder, MIRRORS, treeOf } from './trees.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    dump: { type: 'string', default: new URL('../.work/cooccur-dump.jsonl', import.meta.url).pathname },
    max: { type: 'string', default: '2000' },
  },
});
const engine = await import('./engine.mjs');
const { parseQuery } = await import(join(ROOT, 'server/dist/src/recon/query.js'));
const dump = readFileSync(values.dump, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const PERCENTILES = [0.5, 1, 2, 3, 5];
const lines = [];
for (const set of [...new Set(dump.filter((r) => r.on).map((r) => r.set))]) {
  const rows = inCommitOrder(loadSet(set, 0).rows.filter((r) => r.sha));
  const newest = rows[rows.length - 1];
  const own = dump.filter((r) => r.on && r.set === set);
  const middle = Math.floor(own.length / 2);
  const cut = rows.find((r) => r.id === own[middle].id).sha;
  const log = execFileSync(
    'git',
    [
      '-C',
      join(MIRRORS, newest.repo.replace('/', '+'), 'repo'),
      'log',
      '--no-merges',
      `-n${values.max}`,
      '--format=%B%x1e',
      cut,
    ],
    { maxBuffer: 1 << 30 },
  ).toString();
  const messages = log
    .split('\x1e')
    .map((m) => m.trim())
    .filter(Boolean);
  const started = process.cpuUsage();
  const recon = await engine.open(treeOf(newest.repo, newest.sha));
  const view = recon.view();
  const files = view.files().length;
  const rarities = [];
  for (const message of messages) {
    // As the commit sets were built: a message of 8+ words (not `v3.22.4`, `Bump deps`).
    if (message.split(/\s+/).length < 8) continue;
    const terms = parseQuery(message.slice(0, 4000), [], [], view).terms;
    if (terms.length === 0) continue;
    const sum = terms.reduce((total, t) => total + Math.log((view.wordFileCount(t) + 0.5) / files), 0);
    rarities.push(sum / terms.length);
  }
  rarities.sort((a, b) => a - b);
  const cpu = process.cpuUsage(started);
  await recon.close();
  const newer = own.slice(middle);
  const against = dump.filter((r) => !r.on && r.target === set);
  const share = (list, threshold) =>
    `${(
      (100 * list.filter((r) => r.gate === 'UNSAT' || (r.features.word_rarity ?? 0) < threshold).length) /
      list.length
    ).toFixed(1)}%`;
  lines.push(
    `${set}: ${rarities.length} messages, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU (index load included);` +
      ` newer half ${newer.length} rows, gate alone ${share(newer, -Infinity)}; off-topic ${against.length} rows,` +
      ` gate alone ${share(against, -Infinity)}`,
  );
  for (const p of PERCENTILES) {
    const threshold = rarities[Math.floor((rarities.length * p) / 100)];
    const rates = `on-topic ${share(newer, threshold)}  off-topic ${against.length ? share(against, threshold) : '-'}`;
    lines.push(`  p${p}: word_rarity < ${threshold.toFixed(2)}  ${rates}`);
  }
}
console.log(`${lines.join('\n')}\n\ncommand: node bench/recon/self-calibration.mjs ${process.argv.slice(2).join(' ')}`);
