#!/usr/bin/env node
// Dumps, per task and tree, what a co-occurrence gate signal could read: each content term's file count in the
// tree, and which of the task's terms each of recon's top files holds (its text and path, as the index's
// vocabulary reads them). On-topic rows on their repository's newest tree (overstates misses), off-topic pairs as
// gates.mjs. For offline tuning only; cooccur-tune.mjs reads the output.
// usage: node bench/recon/cooccur-dump.mjs [--sets zod,flask,express] [--offtopic pairs] [--out FILE] [--limit N]
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { benchArgs } from '../cli-args.mjs';
import { loadSet } from './data.mjs';
import { inCommitOrder, treeOf } from './trees.mjs';
import { DEFAULT_OFFTOPIC } from './offtopic.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const { vocabularyWords, identifierWords } = await import(join(ROOT, 'core/dist/src/index.js'));
const { distinctiveWords } = await import(join(ROOT, 'server/dist/src/recon/vocabulary.js'));
const { values } = benchArgs(import.meta.url, {
  options: {
    sets: { type: 'string', default: 'zod,flask,express' },
    offtopic: { type: 'string', default: DEFAULT_OFFTOPIC },
    limit: { type: 'string', default: '0' },
    out: { type: 'string', default: new URL('../.work/cooccur-dump.jsonl', import.meta.url).pathname },
  },
});
const limit = Number(values.limit) || 0;
const engine = await import('./engine.mjs');
const out = createWriteStream(values.out);
const TOP_FILES = 10;

const latest = new Map();
const tasksOf = new Map();
const jobs = [
  ...values.sets
    .split(',')
    .filter(Boolean)
    .map((s) => [s, s]),
  ...values.offtopic
    .split(',')
    .filter(Boolean)
    .map((p) => p.split(':')),
];
for (const set of new Set(jobs.flat())) {
  const rows = inCommitOrder(loadSet(set, 0).rows.filter((r) => r.sha));
  const last = rows[rows.length - 1];
  latest.set(set, { repo: last.repo, sha: last.sha });
  tasksOf.set(set, limit ? loadSet(set, limit).rows : rows);
}
const byTarget = new Map();
for (const [set, target] of jobs) byTarget.set(target, [...(byTarget.get(target) ?? []), set]);
for (const [target, sets] of byTarget) {
  const tree = latest.get(target);
  const t0 = process.cpuUsage();
  const recon = await engine.open(treeOf(tree.repo, tree.sha));
  const view = recon.view();
  const files = view.files().length;
  const wordsOf = new Map();
  const fileWords = (path) => {
    let words = wordsOf.get(path);
    if (!words) {
      words = vocabularyWords(view.fileText(path) ?? '');
      for (const part of identifierWords(path)) words.add(part);
      wordsOf.set(path, words);
    }
    return words;
  };
  for (const set of sets) {
    for (const row of tasksOf.get(set)) {
      const run = await recon.query(row.task);
      const terms = run.query.terms;
      const paths = [];
      for (const span of run.result.results) if (!paths.includes(span.path)) paths.push(span.path);
      const top = paths.slice(0, TOP_FILES).map((p) => terms.filter((t) => fileWords(p).has(t)));
      out.write(
        `${JSON.stringify({
          set,
          target,
          on: set === target,
          id: row.id,
          task: row.task.slice(0, 160),
          files,
          gate: run.result.gate,
          features: run.result.metrics.gate_features,
          terms: terms.map((t) => [t, view.wordFileCount(t)]),
          distinctive: distinctiveWords(terms),
          identifiers: run.query.identifiers,
          top,
          scores: run.result.results.slice(0, 10).map((s) => s.score),
        })}\n`,
      );
    }
    console.error(`${set} on ${target}: ${tasksOf.get(set).length} rows`);
  }
  const cpu = process.cpuUsage(t0);
  console.error(`${target}: ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU`);
  await recon.close();
}
out.end();
