#!/usr/bin/env node
// Index speed on real repositories, side by side with Universal Ctags and bare tree-sitter parsing
// of the same files. Every measurement runs in its own process (index-once.mjs) so peak RSS is its own.
// usage: node bench/index/run.mjs [name=dir ...]   (default: zod, vue, sympy under bench/.work/)
//        node bench/index/run.mjs --scale [--calls N] [--sizes small,medium,large]
// --runs N (default 3): cold builds and bare parses per repository, interleaved; the table shows the medians (a
// single bare parse of vuejs/core has read 0.69 and 1.08 CPU s minutes apart) and the JSON each run's CPU.
// Prints one JSON object per repository, then a summary table and the command that reproduces it.
// --scale: combined trees of the fetched projects (combined.mjs) at three sizes; each is built cold,
// scouted and asked N recon calls (default 100) in one process (scale-once.mjs), then re-opened in a
// fresh one; CPU against the bare parse, peak RSS per step, RSS once the server has been quiet past the
// definition graph's keep time, index.db size, stage times per 1,000 files.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from '../cli-args.mjs';
import { benchRepos } from '../repos.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values, positionals } = benchArgs(import.meta.url, {
  options: {
    scale: { type: 'boolean', default: false },
    calls: { type: 'string', default: '100' },
    sizes: { type: 'string', default: 'small,medium,large' },
    runs: { type: 'string', default: '3' },
  },
  allowPositionals: true,
});
const scale = values.scale;
const repos = scale ? [] : benchRepos(positionals);
const scratch = mkdtempSync(join(tmpdir(), 'agentgov-bench-index-'));

function once(mode, dir, list) {
  const out = execFileSync(process.execPath, [join(here, 'index-once.mjs'), mode, dir, list ?? ''], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out.trim().split('\n').pop());
}

/** ctags over exactly the files the index holds; GNU time gives wall, CPU and peak RSS. */
function timedCtags(dir, list) {
  try {
    execFileSync(
      '/usr/bin/time',
      ['-o', join(scratch, 'time'), '-f', '%e %U %S %M', 'ctags', '-f', join(scratch, 'tags'), '-L', list],
      { cwd: dir, stdio: 'ignore' },
    );
  } catch {
    // ctags warns on odd files but still writes its tags; the timing file is what matters
  }
  const [wall, user, system, rssKb] = readFileSync(join(scratch, 'time'), 'utf8')
    .trim()
    .split('\n')
    .pop()
    .split(' ')
    .map(Number);
  const tagCount = readFileSync(join(scratch, 'tags'), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('!')).length;
  return {
    ms: Math.round(wall * 1000),
    cpu_ms: Math.round((user + system) * 1000),
    peak_rss_mb: Math.round(rssKb / 1024),
    tags: tagCount,
  };
}

if (scale) {
  const { runScale } = await import('./scale.mjs');
  await runScale(scratch, once, values);
  process.exit(0);
}

const runs = Math.max(1, Number.parseInt(values.runs, 10) || 1);
/** The run with the median CPU time. */
const median = (results) => [...results].sort((a, b) => a.cpu_ms - b.cpu_ms)[(results.length - 1) >> 1];

const rows = [];
for (const { name, dir } of repos) {
  const list = join(scratch, `${name}.files`);
  const colds = [];
  const parses = [];
  for (let run = 0; run < runs; run++) {
    colds.push(once('cold', dir, list));
    parses.push(once('parse', dir, list));
  }
  const cold = median(colds);
  const parse = median(parses);
  const tags = timedCtags(dir, list);
  const reopens = [once('reopen', dir), once('reopen', dir), once('reopen', dir)].sort((a, b) => a.ms - b.ms);
  const update = once('update', dir);
  const row = {
    repo: name,
    files: cold.files,
    definitions: cold.definitions,
    references: cold.references,
    imports: cold.imports,
    skipped: cold.skipped,
    cold_ms: cold.ms,
    cold_cpu_ms: cold.cpu_ms,
    cold_phases_ms: cold.phases,
    files_per_s: Math.round((cold.files / cold.ms) * 1000),
    peak_rss_mb: cold.peak_rss_mb,
    ctags_ms: tags.ms,
    ctags_cpu_ms: tags.cpu_ms,
    ctags_tags: tags.tags,
    parse_ms: parse.ms,
    parse_cpu_ms: parse.cpu_ms,
    runs_cold_cpu_ms: colds.map((run) => run.cpu_ms),
    runs_parse_cpu_ms: parses.map((run) => run.cpu_ms),
    ratio_to_ctags: +(cold.ms / tags.ms).toFixed(2),
    cpu_ratio_to_ctags: +(cold.cpu_ms / tags.cpu_ms).toFixed(2),
    ratio_to_parse: +(cold.ms / parse.ms).toFixed(2),
    cpu_ratio_to_parse: +(cold.cpu_ms / parse.cpu_ms).toFixed(2),
    reopen_ms: reopens[1].ms,
    reopen_reparsed: reopens[1].reparsed,
    update_median_ms: update.median_ms,
    update_max_ms: update.max_ms,
    update_file: update.file,
    body_edit_median_ms: update.body_edit_median_ms,
    body_edit_resolved_files: update.body_edit_resolved_files,
    load_average: (await import('node:os')).loadavg()[0].toFixed(1),
  };
  console.log(JSON.stringify(row));
  rows.push(row);
}

console.log(
  `\n| repo | files | defs | refs | cold s (CPU s), median of ${runs} | files/s | peak RSS MB ` +
    `| ctags s (CPU s) | ×ctags wall (CPU) | parse s (CPU s), median of ${runs} | ×parse wall (CPU) ` +
    '| re-open ms | update ms median/max | body edit ms median (files resolved) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
const s = (ms) => (ms / 1000).toFixed(2);
for (const r of rows) {
  console.log(
    `| ${r.repo} | ${r.files} | ${r.definitions} | ` +
      `${r.references} | ${s(r.cold_ms)} (${s(r.cold_cpu_ms)}) | ` +
      `${r.files_per_s} | ${r.peak_rss_mb} | ` +
      `${s(r.ctags_ms)} (${s(r.ctags_cpu_ms)}) | ` +
      `${r.ratio_to_ctags} (${r.cpu_ratio_to_ctags}) | ` +
      `${s(r.parse_ms)} (${s(r.parse_cpu_ms)}) | ` +
      `${r.ratio_to_parse} (${r.cpu_ratio_to_parse}) | ` +
      `${r.reopen_ms} | ${r.update_median_ms}/` +
      `${r.update_max_ms} | ${r.body_edit_median_ms} (${r.body_edit_resolved_files}) |`,
  );
}
console.log(`\nreproduce: node bench/index/run.mjs ${process.argv.slice(2).join(' ')}`.trimEnd());
