// Python METHOD renames on pallets/flask through the real MCP tools: how many edits are medium (unresolved receivers),
// and does applying only the high edits keep the test suite's pass count.
//
// npx tsc -b && node bench/rename/flask-methods.mjs [--label before|after] [--only Flask.test_client,...] [--cli PATH]
//
// Each method is renamed alone on the fresh base tree (git reset between them): the preview's counts are recorded,
// then only its `high` hunks are written (by this harness, from the preview's ranges; the preview is then cancelled),
// and `python -m pytest tests` and `pyflakes src tests` run. `--label` stores the rows in
// bench/.work/rename/flask-methods-<label>.json; with both `before` and `after` stored, a side-by-side table is
// printed.
// `--cli` runs another build's `cli/dist/src/main.js` (e.g. a checkout of main) instead of this worktree's.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchArgs } from '../cli-args.mjs';
import { ensureGitRepo, treeOf, WORK_DIR } from '../recon/trees.mjs';
import { resetTree, serve } from './session.mjs';

const FLASK_SHA = '2ac89889f4cc330eabd50f295dcef02828522c69'; // the flask line's tree (flask.mjs)
const VENV = join(WORK_DIR, 'rename', 'flask-venv');
const PY = join(VENV, 'bin', 'python');

/** [qualified method, file declaring it]: methods of Flask, App, Scaffold, Blueprint, Config and FlaskClient. */
export const METHODS = [
  ['Flask.test_client', 'src/flask/app.py'],
  ['Flask.test_request_context', 'src/flask/app.py'],
  ['Flask.app_context', 'src/flask/app.py'],
  ['Flask.make_response', 'src/flask/app.py'],
  ['Flask.ensure_sync', 'src/flask/app.py'],
  ['Flask.test_cli_runner', 'src/flask/app.py'],
  ['Flask.full_dispatch_request', 'src/flask/app.py'],
  ['Flask.handle_exception', 'src/flask/app.py'],
  ['Flask.open_resource', 'src/flask/app.py'],
  ['Scaffold.register_error_handler', 'src/flask/sansio/scaffold.py'],
  ['Scaffold.before_request', 'src/flask/sansio/scaffold.py'],
  ['Scaffold.errorhandler', 'src/flask/sansio/scaffold.py'],
  ['Config.from_object', 'src/flask/config.py'],
  ['Config.from_mapping', 'src/flask/config.py'],
  ['Config.from_pyfile', 'src/flask/config.py'],
  ['Config.from_envvar', 'src/flask/config.py'],
  ['FlaskClient.session_transaction', 'src/flask/testing.py'],
  ['Blueprint.send_static_file', 'src/flask/blueprints.py'],
];

function venv() {
  if (existsSync(PY)) return;
  execFileSync('python3', ['-m', 'venv', VENV], { stdio: 'inherit' });
  const deps = [
    'pytest<9',
    'pyflakes',
    'asgiref',
    'python-dotenv',
    'markupsafe',
    'werkzeug>=3.1',
    'jinja2>=3.1',
    'itsdangerous>=2.2',
    'click>=8.1',
    'blinker>=1.9',
  ];
  execFileSync(join(VENV, 'bin', 'pip'), ['install', '-q', ...deps], { stdio: 'inherit' });
}

function workTree() {
  const dir = join(WORK_DIR, 'rename', 'flask');
  if (!existsSync(join(dir, 'pyproject.toml'))) cpSync(treeOf('pallets/flask', FLASK_SHA), dir, { recursive: true });
  ensureGitRepo(dir);
  resetTree(dir);
  return dir;
}

function pytest(dir) {
  const env = { ...process.env, PYTHONPATH: join(dir, 'src') };
  const run = spawnSync(PY, ['-m', 'pytest', 'tests', '-q', '-p', 'no:cacheprovider'], {
    cwd: dir,
    encoding: 'utf8',
    env,
    maxBuffer: 1 << 26,
  });
  const out = `${run.stdout}\n${run.stderr}`;
  const summary =
    out
      .split('\n')
      .filter((l) => /(passed|failed|error)/.test(l))
      .pop() ?? '';
  const count = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(summary)?.[1] ?? 0);
  return {
    passed: count('passed'),
    failed: count('failed'),
    errors: count('errors?'),
    tail: out.trim().split('\n').slice(-3).join(' | '),
  };
}

function undefinedNames(dir) {
  const run = spawnSync(PY, ['-m', 'pyflakes', 'src', 'tests'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 });
  return run.stdout
    .split('\n')
    .filter((l) => /undefined name|invalid syntax/.test(l))
    .map((l) => l.replace(/:\d+:\d+:?/, ':'));
}

/** Writes the preview's `high` hunks into the tree (last hunk of a line first, so earlier columns stay valid). */
function applyHigh(dir, preview) {
  let written = 0;
  for (const file of preview.edits) {
    const hunks = file.hunks.filter((h) => h.certainty === 'high');
    if (hunks.length === 0) continue;
    const abs = join(dir, file.path);
    const lines = readFileSync(abs, 'utf8').split('\n');
    for (const h of [...hunks].sort(
      (a, b) => b.range.start_line - a.range.start_line || b.range.start_col - a.range.start_col,
    )) {
      const line = lines[h.range.start_line - 1];
      if (h.range.end_line !== h.range.start_line || line.slice(h.range.start_col, h.range.end_col) !== h.old)
        throw new Error(`hunk does not match ${file.path}:${h.line}`);
      lines[h.range.start_line - 1] = line.slice(0, h.range.start_col) + h.new + line.slice(h.range.end_col);
      written += 1;
    }
    writeFileSync(abs, lines.join('\n'));
  }
  return written;
}

const { values } = benchArgs(import.meta.url, {
  options: { only: { type: 'string' }, label: { type: 'string' }, cli: { type: 'string' } },
});
const only = values.only?.split(',');

venv();
const dir = workTree();
const session = await serve(dir, { main: values.cli });
const { call } = session;
const basePytest = pytest(dir);
const baseFlakes = undefinedNames(dir);
console.log(
  JSON.stringify({
    commit: FLASK_SHA,
    label: values.label ?? null,
    baseline: { pytest: basePytest, undefined_names: baseFlakes.length },
  }),
);
const rows = [];
for (const [symbol, path] of METHODS.filter(([symbol]) => !only || only.includes(symbol))) {
  resetTree(dir);
  await new Promise((resolve) => setTimeout(resolve, 1500)); // the watcher re-indexes the reset tree
  const started = performance.now();
  let result = await call('refactor_rename', {
    symbol,
    new_name: `${symbol.split('.').pop()}_renamed`,
    justification: 'bench',
  });
  if (result?.error?.code === 'E_SYMBOL_AMBIGUOUS') {
    const candidate = result.error.details.candidates.find((c) => c.location?.startsWith(`${path}:`));
    if (candidate)
      result = await call('refactor_rename', {
        symbol: candidate.symbol,
        new_name: `${symbol.split('.').pop()}_renamed`,
        justification: 'bench',
      });
  }
  const previewMs = Math.round(performance.now() - started);
  if (!result?.refactor_id) {
    rows.push({ symbol, error: result?.error?.code, message: result?.error?.message?.slice(0, 200) });
    console.log(JSON.stringify(rows.at(-1)));
    continue;
  }
  const written = applyHigh(dir, result.preview);
  await call('refactor_cancel', { refactor_id: result.refactor_id });
  const tests = pytest(dir);
  const flakes = undefinedNames(dir).filter((line) => !baseFlakes.includes(line));
  const ok =
    tests.passed === basePytest.passed &&
    tests.failed === basePytest.failed &&
    tests.errors === basePytest.errors &&
    flakes.length === 0;
  const warnings = result.preview.warnings?.length ?? 0;
  rows.push({
    symbol,
    counts: result.preview.counts,
    high_written: written,
    warnings,
    preview_ms: previewMs,
    passed: tests.passed,
    failed: tests.failed,
    errors: tests.errors,
    new_undefined: flakes.slice(0, 5),
    ok,
  });
  console.log(JSON.stringify(rows.at(-1)));
}
resetTree(dir);
await session.close();
const stored = (label) => {
  const file = join(WORK_DIR, 'rename', `flask-methods-${label}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
};
const summaryOf = (list) => ({
  commit: FLASK_SHA,
  label: values.label ?? null,
  baseline: { passed: basePytest.passed, failed: basePytest.failed },
  methods: list.length,
  ok: list.filter((r) => r.ok).length,
  medium: list.reduce((n, r) => n + (r.counts?.medium ?? 0), 0),
  high: list.reduce((n, r) => n + (r.counts?.high ?? 0), 0),
});
console.log(JSON.stringify({ summary: summaryOf(rows) }));
if (values.label) {
  // with --only, the rows of this run replace theirs in the stored label; the others are kept
  const kept = only
    ? (stored(values.label)?.rows ?? []).filter(
        (r) => !only.includes(r.symbol) && METHODS.some(([symbol]) => symbol === r.symbol),
      )
    : [];
  const all = [...kept, ...rows];
  writeFileSync(
    join(WORK_DIR, 'rename', `flask-methods-${values.label}.json`),
    JSON.stringify({ summary: summaryOf(all), rows: all }, null, 1),
  );
}
const before = stored('before');
const after = stored('after');
if (before && after) {
  const cell = (r) =>
    r?.counts
      ? `${r.counts.high} / ${r.counts.medium} / ${r.counts.low} | ${r.passed} / ${r.failed + r.errors}`
      : `${r?.error ?? '—'} |`;
  console.log(
    '\n| method | before: high / medium / low | passed / failed | after: high / medium / low | passed / failed |',
  );
  console.log('|---|---|---|---|---|');
  for (const [symbol] of METHODS) {
    const b = before.rows.find((r) => r.symbol === symbol);
    const a = after.rows.find((r) => r.symbol === symbol);
    if (b || a) console.log(`| ${symbol} | ${cell(b)} | ${cell(a)} |`);
  }
  console.log(
    `| total | ${before.summary.high} / ${before.summary.medium} high/medium, ` +
      `${before.summary.ok}/${before.summary.methods} keep pytest | | ` +
      `${after.summary.high} / ${after.summary.medium} high/medium, ` +
      `${after.summary.ok}/${after.summary.methods} keep pytest | |`,
  );
}
