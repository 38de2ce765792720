#!/usr/bin/env node
// recon latency on one large repository at one tree (default vuejs/core at the mirror's HEAD).
// Queries are the messages of the repository's own recent commits (non-merge, 1–3 source files,
// 8+ words), the same kind as the commit data sets. The index is built once; every query runs warm.
// usage: node bench/recon/latency.mjs [--repo vuejs/core] [--ref HEAD] [--queries 60]
import { execFileSync } from 'node:child_process';
import { benchArgs } from '../cli-args.mjs';
import { open } from './engine.mjs';
import { percentile } from './metrics.mjs';
import { SOURCE_FILE, mirrorOf, treeOf } from './trees.mjs';

const { values } = benchArgs(import.meta.url, {
  options: {
    repo: { type: 'string', default: 'vuejs/core' },
    ref: { type: 'string', default: 'HEAD' },
    queries: { type: 'string', default: '60' },
  },
});
const mirror = mirrorOf(values.repo);
const sha = execFileSync('git', ['-C', mirror, 'rev-parse', values.ref], { encoding: 'utf8' }).trim();
const log = execFileSync(
  'git',
  ['-C', mirror, 'log', '--no-merges', '--format=%x00%H%x01%B%x01', '--name-only', '-n', '2000', sha],
  { encoding: 'utf8', maxBuffer: 1 << 28 },
);
const tasks = [];
for (const entry of log.split('\0').slice(1)) {
  const [, message = '', files = ''] = entry.split('\x01');
  const sources = files.split('\n').filter((f) => SOURCE_FILE.test(f));
  if (sources.length >= 1 && sources.length <= 3 && message.trim().split(/\s+/).length >= 8) tasks.push(message.trim());
  if (tasks.length >= Number(values.queries)) break;
}

const dir = treeOf(values.repo, sha);
const engine = await open(dir);
const first = await engine.query(tasks[0]);
console.log(
  JSON.stringify({
    repo: values.repo,
    sha,
    index_open_ms: Math.round(engine.index_ms),
    first_query_cold_ms: Math.round(first.cold_ms),
  }),
);
const times = [];
const gates = {};
for (const task of tasks) {
  const run = await engine.query(task);
  times.push(run.warm_ms);
  gates[run.result.gate] = (gates[run.result.gate] ?? 0) + 1;
  const m = run.result.metrics;
  console.log(
    JSON.stringify({
      task: task.split('\n')[0].slice(0, 80),
      ms: Math.round(run.warm_ms * 10) / 10,
      gate: run.result.gate,
      pool: m.pool_size,
      results: run.result.results.length,
      stages: m.timings_ms,
    }),
  );
}
await engine.close();
const p50 = percentile(times, 50);
const p95 = percentile(times, 95);
console.log(JSON.stringify({ summary: { repo: values.repo, queries: times.length, p50_ms: p50, p95_ms: p95, gates } }));
console.log(
  `\n| repo | queries | p50 ms | p95 ms | first query (cold) ms | index open ` +
    `ms |\n|---|---|---|---|---|---|\n| ${values.repo} | ` +
    `${times.length} | ${p50.toFixed(1)} | ` +
    `${p95.toFixed(1)} | ${Math.round(first.cold_ms)} | ` +
    `${Math.round(engine.index_ms)} |`,
);
console.log(`\ncommand: node bench/recon/latency.mjs ${process.argv.slice(2).join(' ')}`);
