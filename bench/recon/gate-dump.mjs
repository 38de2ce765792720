#!/usr/bin/env node
// Dumps what the recon gate could decide from, for tuning it offline: each visible set's tasks on one
// tree of their own repository (on-topic) and on a tree of another repository (off-topic), with every
// content term's document frequency in that tree, whether it is a word of a definition name or path,
// and recon's own gate and gate features.
// usage: node bench/recon/gate-dump.mjs [--sets zod,flask,express] [--offtopic zod:flask,...] [--out FILE]
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { benchArgs } from '../cli-args.mjs';
import { loadSet } from './data.mjs';
import { inCommitOrder, treeOf } from './trees.mjs';
import { DEFAULT_OFFTOPIC } from './offtopic.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const { identifierWords } = await import(join(ROOT, 'core/dist/src/index.js'));
const { values } = benchArgs(import.meta.url, {
  options: {
    sets: { type: 'string', default: 'zod,flask,express' },
    offtopic: { type: 'string', default: DEFAULT_OFFTOPIC },
    out: { type: 'string', default: new URL('../.work/gate-dump.jsonl', import.meta.url).pathname },
  },
});
const engine = await import('./engine.mjs');
const out = createWriteStream(values.out);

const latest = new Map();
const tasksOf = new Map();
const jobs = [...values.sets.split(',').map((s) => [s, s]), ...values.offtopic.split(',').map((p) => p.split(':'))];
for (const set of new Set(jobs.flat())) {
  const rows = inCommitOrder(loadSet(set, 0).rows.filter((r) => r.sha));
  const last = rows[rows.length - 1];
  latest.set(set, { repo: last.repo, sha: last.sha });
  tasksOf.set(set, rows);
}
for (const [set, target] of jobs) {
  const tree = latest.get(target);
  if (!tree) throw new Error(`no tree for ${target}: add it to --sets`);
  const dir = treeOf(tree.repo, tree.sha);
  const recon = await engine.open(dir);
  const view = recon.view();
  const df = new Map();
  const defWords = new Set();
  const files = view.files();
  for (const path of files) {
    const seen = new Set();
    for (const m of (view.fileText(path) ?? '').matchAll(/[A-Za-z_$][\w$]*/g)) {
      seen.add(m[0].toLowerCase());
      for (const w of identifierWords(m[0])) seen.add(w);
    }
    for (const w of seen) df.set(w, (df.get(w) ?? 0) + 1);
    for (const w of identifierWords(path)) defWords.add(w);
  }
  for (const def of view.definitions()) for (const w of identifierWords(def.name)) defWords.add(w);
  for (const row of tasksOf.get(set)) {
    const run = await recon.query(row.task);
    const q = run.result.metrics.gate_features;
    const query = run.query;
    out.write(
      `${JSON.stringify({
        set,
        target,
        id: row.id,
        task: row.task.slice(0, 200),
        files: files.length,
        gate: run.result.gate,
        features: q,
        terms: query.terms.map((t) => [t, df.get(t) ?? 0, defWords.has(t) ? 1 : 0]),
        identifiers: query.identifiers,
        paths: query.paths,
        top: run.result.results[0]?.score ?? 0,
      })}\n`,
    );
  }
  await recon.close();
  console.error(`${set} on ${target}: ${tasksOf.get(set).length} rows`);
}
out.end();
