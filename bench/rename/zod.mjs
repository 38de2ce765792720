// refactor_rename / refactor_move on colinhacks/zod at e516c3b, through the real MCP tools (agentgov serve, stdio).
//
//   npx tsc -b && node bench/rename/zod.mjs [--skip-apply] [--skip-oracle] [--renames 20] [--moves 10]
//
// 1. Oracle: every location TypeScript's findRenameLocations returns for 200 symbols
//    (../shared/bench/data/rename-oracle-zod.jsonl; project packages/zod/tsconfig.json, test files excluded).
//    Each symbol is previewed by name (an ambiguous name is retried with the candidate declared at the oracle's
//    file:line, as an agent would); the preview's edits in packages/zod outside test files (the oracle's project) are
//    compared with the oracle's locations (edits in the other packages' projects are counted apart):
//    precision per certainty, recall, exact location sets. A whole-word text replacement is measured in the same run.
//    Latency of every refactor_rename call: the first (cold) call, then p50/p95.
// 2. Apply: 20 renames (every 10th oracle symbol) and 10 moves (9 files, 1 directory), each alone on the fresh base
//    tree (git reset between them), then `tsc --noEmit -p packages/zod`: error count against the untouched tree,
//    syntax errors (TS1xxx) must be 0.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from '../cli-args.mjs';
import { ensureGitRepo, treeOf, WORK_DIR } from '../recon/trees.mjs';
import { percentile, preview, resetTree, serve } from './session.mjs';

const ZOD_SHA = 'e516c3baf22615e20934116abebfed6c000222c2';
const ORACLE = process.env.RENAME_ORACLE ?? '/work/shared/bench/data/rename-oracle-zod.jsonl';
const PKG = 'packages/zod';
const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
const MOVES = [
  ['packages/zod/src/v3/helpers/util.ts', 'packages/zod/src/v3/util.ts'],
  ['packages/zod/src/v3/helpers/parseUtil.ts', 'packages/zod/src/v3/parsing/parseUtil.ts'],
  ['packages/zod/src/v3/ZodError.ts', 'packages/zod/src/v3/errors/ZodError.ts'],
  ['packages/zod/src/v3/standard-schema.ts', 'packages/zod/src/v3/helpers/standard-schema.ts'],
  ['packages/zod/src/v4/core/regexes.ts', 'packages/zod/src/v4/core/patterns/regexes.ts'],
  ['packages/zod/src/v4/core/util.ts', 'packages/zod/src/v4/core/shared/util.ts'],
  ['packages/zod/src/v4/core/doc.ts', 'packages/zod/src/v4/core/codegen.ts'],
  ['packages/zod/src/v4/classic/iso.ts', 'packages/zod/src/v4/classic/iso-formats.ts'],
  ['packages/zod/src/v4/mini/checks.ts', 'packages/zod/src/v4/mini/validation/checks.ts'],
  ['packages/zod/src/v3/helpers', 'packages/zod/src/v3/support'],
];

const { values } = benchArgs(import.meta.url, {
  options: {
    'skip-apply': { type: 'boolean', default: false },
    'skip-oracle': { type: 'boolean', default: false },
    renames: { type: 'string', default: '20' },
    moves: { type: 'string', default: '10' },
  },
});

const isTest = (path) => /(^|\/)tests?\//.test(path) || /\.test\.tsx?$/.test(path);

function workTree() {
  const dir = join(WORK_DIR, 'rename', 'zod');
  if (!existsSync(join(dir, 'package.json'))) cpSync(treeOf('colinhacks/zod', ZOD_SHA), dir, { recursive: true });
  ensureGitRepo(dir);
  resetTree(dir);
  return dir;
}

/** Whole-word occurrences of `name` in the non-test .ts files of the package: the text-replacement baseline. */
function textMatches(dir, name, files) {
  const out = new Set();
  const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g');
  for (const file of files) {
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const m of line.matchAll(word)) out.add(`${file}:${i + 1}:${m.index + 1}`);
    });
  }
  return out;
}

function packageFiles(dir) {
  const out = [];
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = join(at, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full);
      } else if (entry.name.endsWith('.ts')) out.push(relative(dir, full));
    }
  };
  walk(join(dir, PKG));
  return out.filter((f) => !isTest(f)).sort();
}

function tscErrors(dir) {
  const run = spawnSync(process.execPath, [TSC, '-p', `${PKG}/tsconfig.json`, '--noEmit', '--pretty', 'false'], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const lines = run.stdout.split('\n').filter((l) => /error TS\d+/.test(l));
  return { total: lines.length, syntax: lines.filter((l) => /error TS1\d{3}:/.test(l)).length, lines };
}

const dir = workTree();
const oracle = readFileSync(ORACLE, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const session = await serve(dir);
const { call } = session;

// ── 1. oracle ────────────────────────────────────────────────────────────────────────────────
const files = packageFiles(dir);
const tally = { high: { tp: 0, fp: 0 }, medium: { tp: 0, fp: 0 }, low: { tp: 0, fp: 0 } };
const text = { tp: 0, fp: 0, exact: 0 };
let oracleTotal = 0;
let found = 0;
let exact = 0;
const latencies = [];
const misses = [];
const beyond = { high: 0, medium: 0, low: 0 };
const beyondFiles = new Set();
for (const row of values['skip-oracle'] ? [] : oracle) {
  const location = `${PKG}/${row.decl.file}:${row.decl.line}`;
  const expected = new Set(row.locations.map((l) => `${PKG}/${l.file}:${l.line}:${l.col}`));
  oracleTotal += expected.size;
  const rowStarted = performance.now();
  const started = performance.now();
  let result = await call('refactor_rename', {
    symbol: row.symbol,
    new_name: `${row.symbol}Renamed`,
    justification: 'bench',
    include_comments: true,
  });
  latencies.push(performance.now() - started);
  if (result?.error?.code === 'E_SYMBOL_AMBIGUOUS') {
    const candidate = result.error.details.candidates.find(
      (c) => c.location === location || c.also_declared_at?.includes(location),
    );
    if (candidate) {
      const again = performance.now();
      result = await call('refactor_rename', {
        symbol: candidate.symbol,
        new_name: `${row.symbol}Renamed`,
        justification: 'bench',
        include_comments: true,
      });
      latencies.push(performance.now() - again);
    }
  }
  if (!result?.preview) {
    misses.push({
      symbol: row.symbol,
      location,
      error: result?.error?.code ?? 'no preview',
      message: result?.error?.message?.slice(0, 160),
    });
    console.log(JSON.stringify({ symbol: row.symbol, decl: location, error: result?.error?.code }));
    continue;
  }
  found += 1;
  const code = new Set();
  for (const file of result.preview.edits) {
    if (isTest(file.path)) continue;
    // the oracle is packages/zod's project; a rename now also reaches the other packages' projects
    if (!file.path.startsWith(`${PKG}/`)) {
      for (const hunk of file.hunks) beyond[hunk.certainty] += 1;
      beyondFiles.add(file.path);
      continue;
    }
    for (const hunk of file.hunks) {
      const key = `${file.path}:${hunk.line}:${hunk.column + 1}`;
      const hit = expected.has(key);
      tally[hunk.certainty][hit ? 'tp' : 'fp'] += 1;
      if (hunk.certainty !== 'low') code.add(key);
    }
  }
  const recalled = [...expected].filter((k) => code.has(k)).length;
  const isExact = recalled === expected.size && code.size === expected.size;
  if (isExact) exact += 1;
  const words = textMatches(dir, row.symbol, files);
  const wordHits = [...words].filter((k) => expected.has(k)).length;
  text.tp += wordHits;
  text.fp += words.size - wordHits;
  if (wordHits === expected.size && words.size === expected.size) text.exact += 1;
  console.log(
    JSON.stringify({
      symbol: row.symbol,
      decl: location,
      oracle: expected.size,
      code_edits: code.size,
      recalled,
      exact: isExact,
      low: result.preview.counts.low,
      ms: Math.round(performance.now() - rowStarted),
    }),
  );
  await call('refactor_cancel', { refactor_id: result.refactor_id });
}
const codeTp = tally.high.tp + tally.medium.tp;
const precision = (t) => (t.tp + t.fp ? t.tp / (t.tp + t.fp) : NaN);
const summary = {
  symbols: oracle.length,
  previewed: found,
  precision_high: precision(tally.high),
  precision_medium: precision(tally.medium),
  precision_low_vs_oracle: precision(tally.low),
  edits: {
    high: tally.high.tp + tally.high.fp,
    medium: tally.medium.tp + tally.medium.fp,
    low: tally.low.tp + tally.low.fp,
  },
  recall: codeTp / oracleTotal,
  exact_share: exact / oracle.length,
  text_baseline: {
    precision: text.tp / (text.tp + text.fp),
    recall: text.tp / oracleTotal,
    exact_share: text.exact / oracle.length,
  },
  edits_beyond_oracle_project: { ...beyond, files: beyondFiles.size },
  latency_ms: {
    cold: Math.round(latencies[0]),
    p50_warm: Math.round(percentile(latencies.slice(1), 50)),
    p95_warm: Math.round(percentile(latencies.slice(1), 95)),
    calls: latencies.length,
  },
  misses,
};
console.log(JSON.stringify({ summary }));

// ── 2. apply + tsc ───────────────────────────────────────────────────────────────────────────
if (!values['skip-apply']) {
  const base = tscErrors(dir);
  console.log(JSON.stringify({ baseline_tsc_errors: base.total, baseline_syntax: base.syntax }));
  const jobs = [
    ...oracle
      .filter((_, i) => i % 10 === 0)
      .slice(0, Number(values.renames))
      .map((row) => ({ kind: 'rename', row })),
    ...MOVES.slice(0, Number(values.moves)).map(([from, to]) => ({ kind: 'move', from, to })),
  ];
  const failures = [];
  for (const job of jobs) {
    resetTree(dir);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // let the watcher re-index the reset tree
    const label =
      job.kind === 'rename'
        ? `rename ${job.row.symbol} (${PKG}/${job.row.decl.file}:${job.row.decl.line})`
        : `move ${job.from} -> ${job.to}`;
    const previewStarted = performance.now();
    const { result } =
      job.kind === 'rename'
        ? await preview(
            call,
            'refactor_rename',
            {
              symbol: job.row.symbol,
              new_name: `${job.row.symbol}Renamed`,
              justification: 'bench',
              include_comments: false,
            },
            `${PKG}/${job.row.decl.file}:${job.row.decl.line}`,
          )
        : {
            result: await call('refactor_move', {
              from_path: job.from,
              to_path: job.to,
              justification: 'bench',
              include_comments: false,
            }),
          };
    if (!result?.refactor_id) {
      failures.push({ label, error: result?.error?.code });
      console.log(JSON.stringify({ job: label, error: result?.error?.code, message: result?.error?.message }));
      continue;
    }
    const previewMs = Math.round(performance.now() - previewStarted);
    const commitStarted = performance.now();
    const committed = await call('refactor_commit', { refactor_id: result.refactor_id });
    const commitMs = Math.round(performance.now() - commitStarted);
    if (committed?.error) {
      failures.push({ label, error: committed.error.code });
      console.log(JSON.stringify({ job: label, commit_error: committed.error.code, message: committed.error.message }));
      continue;
    }
    const after = tscErrors(dir);
    const ok = after.total <= base.total && after.syntax === 0;
    if (!ok)
      failures.push({
        label,
        tsc_errors: after.total,
        new_lines: after.lines.filter((l) => !base.lines.includes(l)).slice(0, 5),
      });
    console.log(
      JSON.stringify({
        job: label,
        files_changed: committed.files_changed.length,
        edits: result.preview.counts,
        tsc_errors: after.total,
        syntax_errors: after.syntax,
        preview_ms: previewMs,
        commit_ms: commitMs,
        ok,
      }),
    );
  }
  resetTree(dir);
  console.log(JSON.stringify({ apply: { jobs: jobs.length, ok: jobs.length - failures.length, failures } }));
}
await session.close();

console.log(
  `
| metric | value |
|---|---|
| symbols previewed | ${summary.previewed}/` +
    `${summary.symbols} |
| high precision | ${summary.precision_high.toFixed(3)} (` +
    `${summary.edits.high} edits) |
| medium precision | ${Number.isNaN(summary.precision_medium) ? '— (0 edits)' : summary.precision_medium.toFixed(3)} ` +
    `|
| low (comments/strings) edits | ${summary.edits.low} (` +
    `${summary.precision_low_vs_oracle.toFixed(3)} in the oracle) |
| recall (high + medium) | ${summary.recall.toFixed(4)} |
| exact location set | ${(summary.exact_share * 100).toFixed(1)} % |
| whole-word text baseline | precision ` +
    `${summary.text_baseline.precision.toFixed(3)}, recall ` +
    `${summary.text_baseline.recall.toFixed(3)}, exact ` +
    `${(summary.text_baseline.exact_share * 100).toFixed(1)} % |
| refactor_rename latency | cold ${summary.latency_ms.cold} ms, warm p50 ` +
    `${summary.latency_ms.p50_warm} ms, p95 ` +
    `${summary.latency_ms.p95_warm} ms (${summary.latency_ms.calls} calls) |
command: npx tsc -b && node bench/rename/zod.mjs`,
);
