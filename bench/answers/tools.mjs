#!/usr/bin/env node
// What the answers of the tools whose output grows with the repository cost the agent, at their defaults,
// through the real `agentgov serve` over stdio: bytes of the text content and of the structured copy of
// recon, recon_impact, recon_scout, graph_cycles and graph_communities, on this repository and on the
// visible bench repositories (the mirror's HEAD tree). Per tool: median, p95 and max of each.
// Calls per repository: recon on up to 30 tasks (the set's commit messages; this repository's own),
// recon_impact on the 10 most-imported files, the 10 most-referenced symbols and the best definition
// of each recon answer; recon_scout on the whole repository and on up to 10 zoom targets; both graph
// tools at `file` and `def` level.
// usage: node bench/answers/tools.mjs [--repos self,flask,express,zod] [--tasks 30] [--out FILE]
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { benchArgs } from '../cli-args.mjs';
import { loadSet } from '../recon/data.mjs';
import { percentile } from '../recon/metrics.mjs';
import { ensureGitRepo, mirrorOf, treeOf } from '../recon/trees.mjs';
import { answerBytes, startServe } from './serve-client.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const { values } = benchArgs(import.meta.url, {
  options: {
    repos: { type: 'string', default: 'self,flask,express,zod' },
    tasks: { type: 'string', default: '30' },
    out: { type: 'string' },
  },
});
const TASKS = Number(values.tasks);
const SET_REPOS = { flask: 'pallets/flask', express: 'expressjs/express', zod: 'colinhacks/zod' };

function every(list, n) {
  if (list.length <= n) return list;
  const step = list.length / n;
  return Array.from({ length: n }, (_, i) => list[Math.floor(i * step)]);
}

/** The repository, its HEAD tree (a git repository, for the tools that read git) and its tasks. */
function target(name) {
  if (name === 'self') {
    const log = execFileSync('git', ['-C', ROOT, 'log', '--no-merges', '--format=%s', '-n', '300'], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter((s) => s.split(' ').length >= 8);
    return { name, dir: ROOT, tasks: every(log, TASKS) };
  }
  const repo = SET_REPOS[name];
  if (!repo) throw new Error(`unknown repository '${name}' (known: self, ${Object.keys(SET_REPOS).join(', ')})`);
  const head = execFileSync('git', ['-C', mirrorOf(repo), 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  const dir = treeOf(repo, head);
  ensureGitRepo(dir);
  return {
    name,
    dir,
    tasks: every(
      loadSet(name, 0).rows.map((r) => r.task),
      TASKS,
    ),
  };
}

const samples = {};
const record = (repo, tool, args, result) => {
  const size = answerBytes(result);
  (samples[tool] ??= []).push({ repo, ...size });
  const line = JSON.stringify({ repo, tool, args, error: result.structuredContent?.error?.code, ...size });
  console.log(line);
  if (values.out) appendFileSync(values.out, `${line}\n`);
};

for (const name of values.repos.split(',')) {
  const t = target(name);
  const serve = await startServe(t.dir);
  try {
    const call = async (tool, args) => {
      const result = await serve.call(tool, args);
      record(name, tool, args, result);
      return result.structuredContent ?? {};
    };
    const scout = await call('recon_scout', {});
    for (const zoom of (scout.zoom_targets ?? []).slice(0, 10)) await call('recon_scout', { scope: zoom.path });
    const impactTargets = new Set([
      ...(scout.top_files ?? []).slice(0, 10).map((f) => f.path),
      ...(scout.top_symbols ?? []).slice(0, 10).map((s) => s.qualified_name),
    ]);
    for (const task of t.tasks) {
      const answer = await call('recon', { task });
      const best = answer.results?.[0];
      if (best) impactTargets.add(best.qualified_name);
    }
    for (const impact of impactTargets)
      await call('recon_impact', { target: impact, justification: 'bench: answer size' });
    for (const level of ['file', 'def']) {
      await call('graph_cycles', { level });
      await call('graph_communities', { level });
    }
  } finally {
    await serve.close();
  }
}

const KB = (b) => `${(b / 1024).toFixed(1)} KB`;
const rows = [
  '| tool | calls | text median | text p95 | text max | structured median | structured p95 | structured max |',
  '|---|---|---|---|---|---|---|---|',
];
for (const [tool, list] of Object.entries(samples)) {
  const stat = (key) => [
    percentile(
      list.map((s) => s[key]),
      50,
    ),
    percentile(
      list.map((s) => s[key]),
      95,
    ),
    Math.max(...list.map((s) => s[key])),
  ];
  const [tm, tp, tx] = stat('text');
  const [sm, sp, sx] = stat('structured');
  rows.push(`| ${tool} | ${list.length} | ${KB(tm)} | ${KB(tp)} | ${KB(tx)} | ${KB(sm)} | ${KB(sp)} | ${KB(sx)} |`);
  console.log(
    JSON.stringify({
      summary: {
        tool,
        calls: list.length,
        text: { median: tm, p95: tp, max: tx },
        structured: { median: sm, p95: sp, max: sx },
      },
    }),
  );
}
console.log(
  `\n${rows.join('\n')}\n\ntargets (each of text and structured): median ≤ ` +
    `12 KB, p95 ≤ 24 KB, max ≤ 32 KB\nrepositories: ` +
    `${values.repos}\ncommand: node bench/answers/tools.mjs ` +
    `${process.argv.slice(2).join(' ')}`,
);
