#!/usr/bin/env node
// Self-calibration of the gate from a repository's whole commit history, as a server would do it: every
// non-merge commit message of 8+ words up to the middle row of each visible set is parsed as a task on the
// repository's newest tree and scored; the UNSAT threshold is a low percentile of those scores. Scores: word_rarity
// (the gate's feature) and word_rarity + history_rarity / 2 (history_rarity as in history-signal.mjs: against the
// messages before the one scored). The rates are read on the newer half of the set's rows and on the off-topic tasks
// run against the repository (cooccur-dump.mjs output). Offline measurement only.
// usage: node bench/recon/self-calibration.mjs [--dump FILE]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchArgs } from '../cli-args.mjs';
import { loadSet } from './data.mjs';
import { inCommitOrder, MIRRORS, treeOf } from './trees.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const { values } = benchArgs(import.meta.url, {
  options: {
    dump: { type: 'string', default: new URL('../.work/cooccur-dump.jsonl', import.meta.url).pathname },
  },
});
const engine = await import('./engine.mjs');
const { vocabularyWords } = await import(join(ROOT, 'core/dist/src/index.js'));
const { parseQuery } = await import(join(ROOT, 'server/dist/src/recon/query.js'));
const dump = readFileSync(values.dump, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const PERCENTILES = [0.5, 1, 2, 3, 5];
const lines = [];
/** Off-topic UNSAT per score and percentile, summed over repositories. */
const totals = new Map();
/** Mean over terms of ln((messages having the term + 0.5) / messages). */
const historyRarity = (terms, counts, messages) =>
  terms.length
    ? terms.reduce((total, t) => total + Math.log(((counts.get(t) ?? 0) + 0.5) / Math.max(1, messages)), 0) /
      terms.length
    : 0;
for (const set of [...new Set(dump.filter((r) => r.on).map((r) => r.set))]) {
  const rows = inCommitOrder(loadSet(set, 0).rows.filter((r) => r.sha));
  const parentOf = new Map(rows.map((r) => [r.id, r.sha]));
  const newest = rows[rows.length - 1];
  const own = dump.filter((r) => r.on && r.set === set);
  const middle = Math.floor(own.length / 2);
  const newer = own.slice(middle);
  const against = dump.filter((r) => !r.on && r.target === set);
  const log = execFileSync(
    'git',
    [
      '-C',
      join(MIRRORS, newest.repo.replace('/', '+'), 'repo'),
      'log',
      '--topo-order',
      '--reverse',
      '--format=%H%x00%P%x00%B%x1e',
      newest.sha,
    ],
    { maxBuffer: 1 << 30 },
  ).toString();
  const commits = log
    .split('\x1e')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [sha, parents, body] = s.split('\0');
      return { sha, merge: parents.split(' ').length > 1, body: (body ?? '').trim() };
    });
  const at = new Map(commits.map((c, i) => [c.sha, i]));
  const cut = at.get(parentOf.get(own[middle].id));
  // Rows read their history at their tree: on-topic rows at their parent, off-topic ones at the newest tree.
  const readAt = new Map();
  for (const r of [...newer, ...against]) {
    const i = at.get(r.on ? parentOf.get(r.id) : newest.sha);
    readAt.set(i, [...(readAt.get(i) ?? []), r]);
  }
  const started = process.cpuUsage();
  const recon = await engine.open(treeOf(newest.repo, newest.sha));
  const view = recon.view();
  const files = view.files().length;
  const counts = new Map();
  const calibration = [];
  const history = new Map();
  commits.forEach((commit, i) => {
    if (i <= cut && !commit.merge && commit.body.split(/\s+/).length >= 8) {
      const terms = parseQuery(commit.body.slice(0, 4000), [], [], view).terms;
      if (terms.length > 0) {
        const word = terms.reduce((total, t) => total + Math.log((view.wordFileCount(t) + 0.5) / files), 0);
        calibration.push({ word: word / terms.length, history: historyRarity(terms, counts, i) });
      }
    }
    for (const w of vocabularyWords(commit.body)) counts.set(w, (counts.get(w) ?? 0) + 1);
    for (const r of readAt.get(i) ?? [])
      history.set(
        r,
        historyRarity(
          r.terms.map(([t]) => t),
          counts,
          i + 1,
        ),
      );
  });
  const cpu = process.cpuUsage(started);
  await recon.close();
  const share = (list, score, threshold) =>
    `${(
      (100 * list.filter((r) => r.gate === 'UNSAT' || score(r) < threshold).length) /
      Math.max(1, list.length)
    ).toFixed(1)}%`;
  lines.push(
    `${set}: ${calibration.length} messages scored, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU;` +
      ` newer half ${newer.length} rows (gate alone ${share(newer, () => 0, -Infinity)}),` +
      ` off-topic ${against.length} rows (gate alone ${share(against, () => 0, -Infinity)})`,
  );
  for (const [label, calibrate, score] of [
    ['word_rarity', (c) => c.word, (r) => r.features.word_rarity ?? 0],
    [
      'word_rarity + history_rarity / 2',
      (c) => c.word + c.history / 2,
      (r) => (r.features.word_rarity ?? 0) + (history.get(r) ?? 0) / 2,
    ],
  ]) {
    const sorted = calibration.map(calibrate).sort((a, b) => a - b);
    for (const p of PERCENTILES) {
      const threshold = sorted[Math.floor((sorted.length * p) / 100)];
      const offTopic = against.length ? share(against, score, threshold) : '-';
      const total = totals.get(`${label}, p${p}`) ?? { unsat: 0, rows: 0 };
      total.unsat += against.filter((r) => r.gate === 'UNSAT' || score(r) < threshold).length;
      total.rows += against.length;
      totals.set(`${label}, p${p}`, total);
      lines.push(
        `  ${`${label}, p${p}`.padEnd(40)} < ${threshold.toFixed(2)}  on-topic ${share(newer, score, threshold)}` +
          `  off-topic ${offTopic}`,
      );
    }
  }
}
lines.push('off-topic, all targets:');
for (const [label, { unsat, rows }] of totals)
  lines.push(`  ${label.padEnd(40)} ${unsat}/${rows} (${((100 * unsat) / Math.max(1, rows)).toFixed(1)}%)`);
console.log(`${lines.join('\n')}\n\ncommand: node bench/recon/self-calibration.mjs ${process.argv.slice(2).join(' ')}`);
