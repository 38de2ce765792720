#!/usr/bin/env node
// Offline tuning of recon's ranking (fusion weights, priors, cutoff) over pools dumped by
// bench/recon/pools.mjs: each variant re-runs the server's own fuse → applyPriors → cutoff on every
// row and prints file-level R@5 and MRR per set, with the misses@5 cut against the stronger baseline
// of a bench/recon/run.mjs output (--baselines).
// usage: node bench/recon/tune.mjs --pools bench/.work/pools.jsonl --baselines bench/.work/full-1.out --variants
// FILE.json
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchArgs } from '../cli-args.mjs';
import { fileMetrics, mean } from './metrics.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const { fuse, DEFAULT_WEIGHTS } = await import(join(ROOT, 'server/dist/src/recon/fuse.js'));
const { applyPriors, DEFAULT_PRIORS } = await import(join(ROOT, 'server/dist/src/recon/priors.js'));
const { cutoff, DEFAULT_CUTOFF } = await import(join(ROOT, 'server/dist/src/recon/cutoff.js'));

const { values } = benchArgs(import.meta.url, {
  options: { pools: { type: 'string' }, baselines: { type: 'string' }, variants: { type: 'string' } },
});
const rows = readFileSync(values.pools, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const baseline = {};
for (const line of readFileSync(values.baselines, 'utf8').split('\n')) {
  if (!line.startsWith('{"summary"')) continue;
  const s = JSON.parse(line).summary;
  baseline[s.set] = s.baseline_path.r5 >= s.baseline.r5 ? s.baseline_path : s.baseline;
}
const variants = values.variants ? JSON.parse(readFileSync(values.variants, 'utf8')) : [{ name: 'default' }];

for (const row of rows) {
  row.poolMap = new Map(
    Object.entries(row.pool).map(([name, list]) => [
      name,
      new Map(
        list.map(([uid, score, explicit]) => [uid, { def_uid: uid, score, ...(explicit ? { explicit: true } : {}) }]),
      ),
    ]),
  );
  row.expandSet = new Set(row.expand);
  row.index = { definition: (uid) => row.defs[uid] ?? undefined };
  row.repoFacts = {
    fileClass: (path) => row.classes?.[path] ?? undefined,
    isProductWord: (word) => (row.productWords ?? []).includes(word),
    workspaceMembers: () => row.members ?? [],
  };
}

for (const variant of variants) {
  const weights = {
    ...DEFAULT_WEIGHTS,
    ...variant.weights,
    retriever: { ...DEFAULT_WEIGHTS.retriever, ...variant.weights?.retriever },
  };
  const priors = { ...DEFAULT_PRIORS, ...variant.priors };
  const bounds = { ...DEFAULT_CUTOFF, ...variant.cutoff };
  const per = {};
  for (const row of rows) {
    // `"minScore": {"hub": 2}` drops a retriever's candidates scored below the bound (as its own option would).
    const pool = variant.minScore
      ? new Map(
          [...row.poolMap].map(([name, list]) => [
            name,
            new Map([...list].filter(([, c]) => c.score >= (variant.minScore[name] ?? -Infinity))),
          ]),
        )
      : row.poolMap;
    const { ranked } = fuse(pool, row.index, row.expandSet, weights);
    // `"repoFacts": false` ranks as before per-repository file classes and test vocabulary existed.
    const ordered = applyPriors(ranked, row.query, priors, variant.repoFacts === false ? undefined : row.repoFacts);
    const keep = cutoff(
      ordered.map((c) => c.score),
      bounds,
    ).keep;
    const files = [...new Set(ordered.slice(0, keep).map((c) => c.def.path))];
    if (variant.dump && row.set === variant.dump)
      console.log(
        JSON.stringify({ id: row.id, gold: row.gold, top: files.slice(0, 5), hit: fileMetrics(files, row.gold).r5 }),
      );
    (per[row.set] ??= []).push(fileMetrics(files, row.gold));
  }
  const cells = Object.entries(per).map(([set, list]) => {
    const r5 = mean(list.map((m) => m.r5));
    const mrr = mean(list.map((m) => m.rr));
    const b = baseline[set];
    const cut = b ? 1 - (1 - r5) / (1 - b.r5) : NaN;
    return (
      `${set} r5 ${r5.toFixed(3)} mrr ${mrr.toFixed(3)} cut ` +
      `${(cut * 100).toFixed(1)}%${b && mrr <= b.mrr ? ' MRR<=base' : ''}`
    );
  });
  console.log(`${variant.name.padEnd(28)} ${cells.join(' | ')}`);
}
