#!/usr/bin/env node
// Checks that a seeded index (a copy of the previous tree's index, brought up to date by re-opening)
// gives recon exactly the answers a cold index gives, on consecutive trees of one data set.
// usage: node bench/recon/seed-check.mjs [--set zod] [--trees 4] [--skip N]
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchArgs } from '../cli-args.mjs';
import { loadSet } from './data.mjs';
import { inCommitOrder, seedIndex, treeOf, WORK_DIR } from './trees.mjs';

const { values } = benchArgs(import.meta.url, {
  options: {
    set: { type: 'string', default: 'zod' },
    trees: { type: 'string', default: '4' },
    skip: { type: 'string', default: '0' },
  },
});
const engine = await import('./engine.mjs');
const { rows } = loadSet(values.set, 0);
// One row per tree: consecutive trees are what seeding copies between.
const ordered = inCommitOrder([...new Map(rows.map((r) => [r.sha, r])).values()]);
const scratch = mkdtempSync(join(WORK_DIR, 'trees', 'seed-check-'));
const answers = (result) => `${result.results.map((r) => JSON.stringify(r)).join('\n')}\ngate ${result.gate}`;
let previous = null;
let same = 0;
let differ = 0;
try {
  for (const [i, row] of ordered.slice(Number(values.skip), Number(values.skip) + Number(values.trees) + 1).entries()) {
    const cold = join(scratch, `cold-${i}`);
    cpSync(treeOf(row.repo, row.sha), cold, { recursive: true, filter: (src) => !src.includes('/.agentgov') });
    const coldRecon = await engine.open(cold);
    const coldAnswer = answers((await coldRecon.query(row.task)).result);
    await coldRecon.close();
    if (previous) {
      const seeded = join(scratch, `seeded-${i}`);
      cpSync(treeOf(row.repo, row.sha), seeded, { recursive: true, filter: (src) => !src.includes('/.agentgov') });
      seedIndex(seeded, previous);
      const seededRecon = await engine.open(seeded);
      const seededAnswer = answers((await seededRecon.query(row.task)).result);
      await seededRecon.close();
      const ok = seededAnswer === coldAnswer;
      ok ? (same += 1) : (differ += 1);
      console.log(
        JSON.stringify({
          sha: row.sha,
          identical: ok,
          cold_index_ms: Math.round(coldRecon.index_ms),
          seeded_index_ms: Math.round(seededRecon.index_ms),
          results: coldAnswer.split('\n').length - 1,
        }),
      );
      if (!ok) console.log(`cold:\n${coldAnswer}\nseeded:\n${seededAnswer}`);
    }
    previous = cold;
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(
  `\n${same} trees identical, ${differ} differ\ncommand: node bench/recon/seed-check.mjs ` +
    `--set ${values.set} --trees ${values.trees} --skip ` +
    `${values.skip}`,
);
process.exitCode = differ > 0 ? 1 : 0;
