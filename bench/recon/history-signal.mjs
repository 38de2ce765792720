#!/usr/bin/env node
// Measures a gate signal recon does not have yet: how rare a task's words are in the repository's own commit
// messages (the history before the task's tree: for an on-topic row its parent's history, for an off-topic pair the
// target tree's). Reads cooccur-dump.mjs's output (run it first) and the fetched mirrors; prints each feature's AUC
// (on-topic vs off-topic), the Pareto curve of the two-feature rule "rare in the files and rare in the history", and
// that of a logistic model over every feature (file rarity, history rarity, co-occurrence, missing and known names,
// best score). The UNSAT rates include the current gate's. Offline tuning only: nothing here is shipped.
// usage: node bench/recon/history-signal.mjs [DUMP]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSet } from './data.mjs';
import { inCommitOrder, MIRRORS } from './trees.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const { vocabularyWords } = await import(join(ROOT, 'core/dist/src/index.js'));
const file = process.argv[2] ?? new URL('../.work/cooccur-dump.jsonl', import.meta.url).pathname;
const dump = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const targets = [...new Set(dump.map((r) => r.target))];

// Each target's first-parent-free history in topological order, and where each row's tree sits in it.
const history = new Map();
const treeOfRow = new Map();
for (const set of targets) {
  const rows = inCommitOrder(loadSet(set, 0).rows.filter((r) => r.sha));
  for (const r of rows) treeOfRow.set(`${set}:${r.id}`, r.sha);
  const newest = rows[rows.length - 1];
  const mirror = join(MIRRORS, newest.repo.replace('/', '+'), 'repo');
  const log = execFileSync('git', ['-C', mirror, 'log', '--topo-order', '--reverse', '--format=%H%x00%B%x1e'], {
    maxBuffer: 1 << 30,
  }).toString();
  const commits = log
    .split('\x1e')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [sha, body] = s.split('\0');
      return { sha, words: vocabularyWords(body ?? '') };
    });
  history.set(set, { commits, at: new Map(commits.map((c, i) => [c.sha, i])), newest: newest.sha, counts: new Map() });
}
/** Word → number of commit messages having it, over the history up to and including position `cut`. */
function countsUpTo(set, cut) {
  const h = history.get(set);
  let counts = h.counts.get(cut);
  if (!counts) {
    counts = new Map();
    for (let i = 0; i <= cut; i += 1) for (const w of h.commits[i].words) counts.set(w, (counts.get(w) ?? 0) + 1);
    h.counts.set(cut, counts);
  }
  return { counts, messages: cut + 1 };
}

const data = [];
for (const r of dump) {
  const h = history.get(r.target);
  const cut = h.at.get(r.on ? treeOfRow.get(`${r.set}:${r.id}`) : h.newest);
  if (cut === undefined) continue;
  const { counts, messages } = countsUpTo(r.target, cut);
  const terms = r.terms.length;
  const logp = r.terms.map(([t]) => Math.log(((counts.get(t) ?? 0) + 0.5) / messages));
  const idf = new Map(r.terms.map(([t, df]) => [t, Math.log((r.files + 1) / (df + 0.5))]));
  const mass = [...idf.values()].reduce((a, b) => a + b, 0);
  const best = Math.max(0, ...r.top.slice(0, 5).map((held) => held.reduce((a, t) => a + (idf.get(t) ?? 0), 0)));
  const f = r.features;
  data.push({
    r,
    x: {
      word_rarity: f.word_rarity ?? 0,
      history_rarity: terms ? logp.reduce((a, b) => a + b, 0) / terms : 0,
      history_unseen: terms ? r.terms.filter(([t]) => !counts.get(t)).length / terms : 0,
      cover: mass ? best / mass : 0,
      missing: Math.min(5, f.words_missing.length + f.mentions_missing.length),
      known: Math.min(5, f.words_known + f.mentions_found.length),
      top_score: r.scores[0] ?? 0,
      log_terms: Math.log(1 + terms),
    },
    terms,
  });
}
const on = data.filter((e) => e.r.on);
const off = data.filter((e) => !e.r.on);
const sets = [...new Set(on.map((e) => e.r.set))];
const pct = (list, rule) => (100 * list.filter((e) => e.r.gate === 'UNSAT' || rule(e)).length) / list.length;
const row = (label, rule) =>
  `${label.padEnd(44)} ${sets
    .map(
      (s) =>
        `${s} ${pct(
          on.filter((e) => e.r.set === s),
          rule,
        ).toFixed(1)}%`,
    )
    .join('  ')}` + `  off-topic ${pct(off, rule).toFixed(1)}%`;

console.log(`rows: ${on.length} on-topic (newest trees for file features, parent history), ${off.length} off-topic`);
console.log('\nAUC, P(off-topic feature > on-topic feature):');
for (const k of Object.keys(data[0].x)) {
  let c = 0;
  for (const a of off) for (const b of on) c += a.x[k] > b.x[k] ? 1 : a.x[k] === b.x[k] ? 0.5 : 0;
  console.log(`  ${k.padEnd(16)} ${(c / (on.length * off.length)).toFixed(3)}`);
}

console.log(`\n${row('current gate', () => false)}`);
console.log('\nrare in the files and rare in the history (Pareto front: highest off-topic per on-topic cost):');
const base = sets.map((s) =>
  pct(
    on.filter((e) => e.r.set === s),
    () => false,
  ),
);
const grid = [];
for (const a of [-2, -2.5, -3, -3.5, -4, -4.5, -5, -5.5])
  for (const b of [-5, -5.5, -6, -6.5, -7, -7.5, -8, -8.5]) {
    const rule = (e) => e.x.word_rarity <= a && e.x.history_rarity <= b;
    const cost = Math.max(
      ...sets.map(
        (s, i) =>
          pct(
            on.filter((e) => e.r.set === s),
            rule,
          ) - base[i],
      ),
    );
    grid.push({ label: `word_rarity <= ${a}, history_rarity <= ${b}`, rule, cost, off: pct(off, rule) });
  }
grid.sort((p, q) => p.cost - q.cost || q.off - p.off);
let front = -1;
for (const g of grid) if (g.off > front) ((front = g.off), console.log(row(g.label, g.rule)));

// Logistic regression over standardised features, on-topic rows weighted 3× (a false UNSAT costs more).
const keys = Object.keys(data[0].x);
const mean = keys.map((k) => data.reduce((a, e) => a + e.x[k], 0) / data.length);
const sd = keys.map((k, i) => Math.sqrt(data.reduce((a, e) => a + (e.x[k] - mean[i]) ** 2, 0) / data.length) || 1);
for (const e of data) e.z = keys.map((k, i) => (e.x[k] - mean[i]) / sd[i]);
let w = keys.map(() => 0);
let bias = 0;
for (let step = 0; step < 3000; step += 1) {
  const gw = keys.map(() => 0);
  let gb = 0;
  for (const e of data) {
    const p = 1 / (1 + Math.exp(-(bias + e.z.reduce((a, v, i) => a + v * w[i], 0))));
    const err = (p - (e.r.on ? 0 : 1)) * (e.r.on ? 3 : 1);
    e.z.forEach((v, i) => (gw[i] += err * v));
    gb += err;
  }
  w = w.map((v, i) => v - (0.5 * gw[i]) / data.length);
  bias -= (0.5 * gb) / data.length;
}
for (const e of data) e.s = bias + e.z.reduce((a, v, i) => a + v * w[i], 0);
console.log(`\nlogistic model: ${keys.map((k, i) => `${k} ${w[i].toFixed(2)}`).join(', ')}; bias ${bias.toFixed(2)}`);
for (const t of [4, 3, 2.5, 2, 1.5, 1, 0.5, 0, -0.5, -1]) console.log(row(`score >= ${t}`, (e) => e.s >= t));

// Self-calibration: each repository's UNSAT threshold is a low percentile of the score of its own older commit
// messages (the first half of its rows, in commit order); the rates are read on the newer half and on the off-topic
// tasks run against it. What a server could compute from `git log` once per index epoch.
console.log("\nself-calibrated thresholds (percentile of the older half of each repository's own messages):");
for (const [label, score] of [
  ['word_rarity', (e) => e.x.word_rarity],
  ['history_rarity', (e) => e.x.history_rarity],
  ['word_rarity + history_rarity', (e) => e.x.word_rarity + e.x.history_rarity],
  ['word_rarity + history_rarity / 2', (e) => e.x.word_rarity + e.x.history_rarity / 2],
])
  for (const p of [0.5, 1, 2, 3]) {
    let offUnsat = 0;
    let offRows = 0;
    const cells = [];
    for (const s of sets) {
      const own = on.filter((e) => e.r.set === s);
      const older = own.slice(0, Math.floor(own.length / 2)).map(score);
      older.sort((a, b) => a - b);
      const threshold = older[Math.floor((older.length * p) / 100)];
      const unsat = (e) => e.r.gate === 'UNSAT' || score(e) < threshold;
      const newer = own.slice(Math.floor(own.length / 2));
      const base = newer.filter((e) => e.r.gate === 'UNSAT').length;
      const share = (n) => `${((100 * n) / newer.length).toFixed(1)}%`;
      cells.push(`${s} ${share(newer.filter(unsat).length)} (${share(base)})`);
      const against = off.filter((e) => e.r.target === s);
      offUnsat += against.filter(unsat).length;
      offRows += against.length;
    }
    console.log(
      `  ${`${label}, p${p}`.padEnd(40)} ${cells.join('  ')}  off-topic ${((100 * offUnsat) / offRows).toFixed(1)}%`,
    );
  }
console.log(`\ncommand: node bench/recon/history-signal.mjs ${process.argv.slice(2).join(' ')}`);
