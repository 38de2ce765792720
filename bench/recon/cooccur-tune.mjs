#!/usr/bin/env node
// Reads cooccur-dump.mjs's output and prints, for candidate co-occurrence rules added to the current gate, the
// UNSAT rate of each on-topic set and of the off-topic pairs: the trade-off curve.
// usage: node bench/recon/cooccur-tune.mjs [FILE]
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? new URL('../.work/cooccur-dump.jsonl', import.meta.url).pathname;
const rows = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));

/** Features of one row: idf-weighted coverage of the task's terms by the best of the top k files. */
export function featuresOf(r, k = 5) {
  const idf = new Map(r.terms.map(([t, df]) => [t, Math.log((r.files + 1) / (df + 0.5))]));
  const total = [...idf.values()].reduce((a, b) => a + b, 0);
  const known = r.terms.filter(([, df]) => df > 0);
  const knownMass = known.reduce((a, [t]) => a + idf.get(t), 0);
  let best = 0;
  let bestCount = 0;
  for (const held of r.top.slice(0, k)) {
    const mass = held.reduce((a, t) => a + (idf.get(t) ?? 0), 0);
    if (mass > best) best = mass;
    if (held.length > bestCount) bestCount = held.length;
  }
  return {
    terms: r.terms.length,
    known: known.length,
    cover: total ? best / total : 0,
    coverKnown: knownMass ? best / knownMass : 0,
    countShare: r.terms.length ? bestCount / r.terms.length : 0,
    rarity: r.features.word_rarity ?? 0,
    top: r.scores[0] ?? 0,
  };
}

const groups = new Map();
for (const r of rows) {
  const key = r.on ? r.set : 'off-topic';
  if (!groups.has(key)) groups.set(key, []);
  groups.get(key).push({ r, f: featuresOf(r) });
}
const rate = (list, rule) => list.filter(({ r, f }) => r.gate === 'UNSAT' || rule(f, r)).length / list.length;
const report = (label, rule) => {
  const cells = [...groups].map(([k, list]) => `${k} ${(100 * rate(list, rule)).toFixed(1)}%`);
  console.log(`${label.padEnd(48)} ${cells.join('  ')}`);
};
report('current gate', () => false);
for (const feature of ['cover', 'coverKnown', 'countShare'])
  for (const minTerms of [2, 3, 4, 6])
    for (const c of [0.2, 0.3, 0.4, 0.5, 0.6])
      report(`${feature} <= ${c}, terms >= ${minTerms}`, (f) => f.terms >= minTerms && f[feature] <= c);
for (const rarity of [-2, -2.5, -3, -3.5, -4])
  for (const c of [0.3, 0.4, 0.5, 0.6])
    report(`cover <= ${c}, rarity <= ${rarity}`, (f) => f.terms >= 2 && f.cover <= c && f.rarity <= rarity);
