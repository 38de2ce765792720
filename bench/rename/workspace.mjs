// A workspace rename on this very repository, through the real MCP tools (agentgov serve, stdio):
// symbols exported by core and used by cli, server and the plugins (each its own tsconfig project,
// importing core by its package name), renamed and applied, then `tsc -b` on the whole solution.
//
//   npx tsc -b && node bench/rename/workspace.mjs [--only core/src/plugins/loader.ts,createPluginHost,definePlugin]
//
// The move runs first, so its preview is timed cold (the first language service of the session).
//
// The repository is cloned from this worktree's HEAD into bench/.work/rename/agentgov (never edited in
// place); its node_modules mirrors this worktree's, except that @agentgov/* point at the clone's own
// packages, so `tsc -b` there compiles the clone. Each job starts from the fresh base tree (git reset),
// previews, prints the edits per tsconfig project, what recon_impact lists for comparison and what the
// preview left unedited, commits (high edits; the medium/low ones dropped: drop_unaccepted) and runs
// `tsc -b` (incremental) on the clone. Untouched tree: `tsc -b` must be clean first.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from '../cli-args.mjs';
import { WORK_DIR } from '../recon/trees.mjs';
import { resetTree, serve } from './session.mjs';

const SOURCE = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(SOURCE, 'node_modules/typescript/bin/tsc');
// the move first: its preview is the session's first, so it is timed cold (no language service made yet)
const JOBS = [
  { kind: 'move', from: 'core/src/plugins/loader.ts', to: 'core/src/plugins/plugin-loader.ts' },
  { kind: 'rename', symbol: 'createPluginHost', newName: 'makePluginHost' },
  { kind: 'rename', symbol: 'definePlugin', newName: 'declarePlugin' },
];

const { values } = benchArgs(import.meta.url, { options: { only: { type: 'string' } } });
const only = values.only ? new Set(values.only.split(',')) : null;

function clone() {
  const dir = join(WORK_DIR, 'rename', 'agentgov');
  const head = execFileSync('git', ['-C', SOURCE, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  if (!existsSync(join(dir, '.git'))) {
    mkdirSync(dirname(dir), { recursive: true });
    execFileSync('git', ['clone', '-q', '--no-hardlinks', SOURCE, dir]);
  }
  if (existsSync(join(dir, '.git'))) resetTree(dir); // a run that died mid-job leaves its edits
  execFileSync('git', ['-C', dir, 'fetch', '-q', SOURCE, head]);
  execFileSync('git', ['-C', dir, 'checkout', '-q', '--detach', head]);
  // node_modules: every entry a link into this worktree's, but @agentgov/* the clone's own packages
  for (const nm of [
    'node_modules',
    ...['cli', 'core', 'server'].map((p) => `${p}/node_modules`),
    ...readdirSync(join(SOURCE, 'plugins')).map((p) => `plugins/${p}/node_modules`),
  ]) {
    if (!existsSync(join(SOURCE, nm))) continue;
    const target = join(dir, nm);
    mkdirSync(target, { recursive: true });
    for (const entry of readdirSync(join(SOURCE, nm))) {
      const at = join(target, entry);
      if (existsSync(at) || lstatExists(at)) continue;
      if (nm === 'node_modules' && entry === '@agentgov') {
        mkdirSync(at);
        for (const pkg of readdirSync(join(SOURCE, nm, entry)))
          symlinkSync(readlinkRelative(join(SOURCE, nm, entry, pkg)), join(at, pkg));
      } else symlinkSync(join(SOURCE, nm, entry), at);
    }
  }
  return { dir, head };
}

function lstatExists(path) {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function readlinkRelative(path) {
  return execFileSync('readlink', [path], { encoding: 'utf8' }).trim();
}

function tscBuild(dir) {
  const started = performance.now();
  const run = spawnSync(process.execPath, [TSC, '-b', '--pretty', 'false'], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const lines = `${run.stdout}${run.stderr}`.split('\n').filter((l) => /error TS\d+/.test(l));
  return {
    status: run.status,
    errors: lines.length,
    first: lines.slice(0, 8),
    ms: Math.round(performance.now() - started),
  };
}

/** The tsconfig project a file belongs to: its nearest directory holding a tsconfig.json. */
function projectOf(dir, path) {
  let at = dirname(path);
  for (;;) {
    if (existsSync(join(dir, at, 'tsconfig.json'))) return at === '.' ? '(root)' : at;
    if (at === '.' || at === '') return '(none)';
    at = dirname(at);
  }
}

const { dir, head } = clone();
console.log(JSON.stringify({ clone: dir, head }));
resetTree(dir);
const base = tscBuild(dir);
console.log(JSON.stringify({ baseline_tsc_b: base }));
if (base.status !== 0) {
  console.log('baseline tsc -b is not clean; stopping');
  process.exit(1);
}
// a cold move asks several whole-repository programs; at load 20+ on 2 cores that alone ran past 10 minutes
const session = await serve(dir, { timeoutMs: 1_800_000 });
const { call } = session;
const results = [];
let previews = 0;
for (const job of JOBS) {
  const label = job.kind === 'rename' ? `rename ${job.symbol} -> ${job.newName}` : `move ${job.from} -> ${job.to}`;
  if (only && !only.has(job.symbol ?? job.from)) continue;
  resetTree(dir);
  // let the watcher see the reset tree: after a move's commit the reset restores the moved file, which the index
  // re-reads; recon_impact is read once two answers 3 s apart agree
  const askImpact = () =>
    call('recon_impact', { target: job.symbol ?? job.from, justification: 'bench', include_comments: false });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  let impact = await askImpact();
  for (let tries = 0; tries < 30; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const again = await askImpact();
    const same = JSON.stringify(again?.counts) === JSON.stringify(impact?.counts);
    impact = again;
    if (same) break;
  }
  const impactRefs = impact.references ?? [];
  const started = performance.now();
  const preview =
    job.kind === 'rename'
      ? await call('refactor_rename', { symbol: job.symbol, new_name: job.newName, justification: 'bench' })
      : await call('refactor_move', { from_path: job.from, to_path: job.to, justification: 'bench' });
  const previewMs = Math.round(performance.now() - started);
  // cold: the session's first preview (after a move's commit every project is rebuilt too)
  const cold = previews === 0;
  previews += 1;
  if (!preview?.refactor_id) {
    console.log(JSON.stringify({ job: label, error: preview?.error }));
    results.push({ label, ok: false });
    continue;
  }
  const perProject = {};
  for (const file of preview.preview.edits) {
    const project = projectOf(dir, file.path);
    perProject[project] ??= { files: 0, high: 0, medium: 0, low: 0 };
    perProject[project].files += 1;
    for (const hunk of file.hunks) perProject[project][hunk.certainty] += 1;
  }
  const edited = new Set(
    preview.preview.edits.flatMap((f) =>
      f.hunks.filter((h) => h.certainty !== 'low').map((h) => `${f.path}:${h.line}`),
    ),
  );
  const impactFiles = new Set(impactRefs.map((r) => r.path));
  const impactCode = impactRefs.filter((r) => r.certainty !== 'low');
  const impactMissed = impactCode.filter((r) => !edited.has(`${r.path}:${r.line}`) && r.context !== 'import');
  console.log(
    JSON.stringify({
      job: label,
      counts: preview.preview.counts,
      files: preview.preview.files,
      preview_ms: previewMs,
      cold,
    }),
  );
  console.log(JSON.stringify({ job: label, edits_per_project: perProject }));
  console.log(
    JSON.stringify({
      job: label,
      recon_impact: {
        references: impactRefs.length,
        code: impactCode.length,
        files: impactFiles.size,
        code_lines_without_edit: impactMissed.map((r) => `${r.path}:${r.line}`),
      },
    }),
  );
  console.log(
    JSON.stringify({
      job: label,
      unedited: preview.preview.unedited.map((u) => `${u.path}:${u.line} [${u.certainty}] ${u.reason}`),
      warnings: preview.preview.warnings,
    }),
  );
  const commitStarted = performance.now();
  const committed = await call('refactor_commit', { refactor_id: preview.refactor_id, drop_unaccepted: true });
  const commitMs = Math.round(performance.now() - commitStarted);
  if (committed?.error) {
    console.log(JSON.stringify({ job: label, commit_error: committed.error }));
    results.push({ label, ok: false });
    continue;
  }
  const after = tscBuild(dir);
  const ok = after.status === 0 && after.errors === 0;
  console.log(
    JSON.stringify({
      job: label,
      applied: committed.counts,
      not_applied: committed.not_applied.reduce((n, f) => n + f.hunks.length, 0),
      files_changed: committed.files_changed.length,
      commit_ms: commitMs,
      tsc_b: after,
      ok,
    }),
  );
  results.push({
    label,
    ok,
    projects: Object.keys(perProject).length,
    edits: preview.preview.counts,
    preview_ms: previewMs,
    cold,
    tsc_errors: after.errors,
  });
}
resetTree(dir);
await session.close();
console.log(JSON.stringify({ summary: { jobs: results.length, ok: results.filter((r) => r.ok).length, results } }));
console.log('command: npx tsc -b && node bench/rename/workspace.mjs');
