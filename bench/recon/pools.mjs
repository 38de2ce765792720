#!/usr/bin/env node
// Dumps recon's raw candidate pools (every retriever's candidates, before fusion) for the rows of
// the visible data sets, so fusion, priors and cutoff can be tuned offline with bench/recon/tune.mjs.
// usage: node bench/recon/pools.mjs --sets flask,express,zod,issues --out bench/.work/pools.jsonl
import { createWriteStream } from 'node:fs';
import { benchArgs } from '../cli-args.mjs';
import { loadSet } from './data.mjs';
import { SOURCE_FILE, inCommitOrder, seedIndex, sourceFiles, treeOf } from './trees.mjs';

const { values } = benchArgs(import.meta.url, {
  options: {
    sets: { type: 'string', default: 'issues,flask,express,zod' },
    limit: { type: 'string', default: '0' },
    out: { type: 'string', default: new URL('../.work/pools.jsonl', import.meta.url).pathname },
  },
});
const engine = await import('./engine.mjs');
const out = createWriteStream(values.out);
let written = 0;
let unextractable = 0;
for (const set of values.sets.split(',')) {
  const rows = loadSet(set, Number(values.limit) || 0).rows.filter((r) => r.sha);
  const ordered = inCommitOrder(rows);
  let current = null;
  for (const row of ordered) {
    if (!current || current.key !== `${row.repo}@${row.sha}`) {
      await current?.recon?.close();
      const previous = current?.repo === row.repo ? current.dir : null;
      let dir;
      try {
        dir = treeOf(row.repo, row.sha);
      } catch (error) {
        current = { key: `${row.repo}@${row.sha}`, repo: row.repo, dir: null, recon: null };
        console.error(`skipped ${row.id}: ${error.message.split('\n')[0]}`);
      }
      if (dir) {
        seedIndex(dir, previous);
        current = {
          key: `${row.repo}@${row.sha}`,
          repo: row.repo,
          dir,
          files: new Set(sourceFiles(dir)),
          recon: await engine.open(dir),
        };
      }
    }
    if (!current.recon) {
      unextractable += 1;
      continue;
    }
    const gold = row.gold.filter((g) => SOURCE_FILE.test(g) && current.files.has(g));
    if (gold.length === 0) continue;
    out.write(`${JSON.stringify({ set, id: row.id, gold, ...(await current.recon.pool(row.task)) })}\n`);
    written += 1;
  }
  await current?.recon?.close();
  console.error(`${set}: ${written} rows so far`);
}
out.end();
console.error(
  `wrote ${written} rows to ${values.out}` +
    `${unextractable ? `; ${unextractable} rows skipped, their tree could not be extracted` : ''}`,
);
