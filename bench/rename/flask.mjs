// refactor_rename / refactor_move on pallets/flask, through the real MCP tools (agentgov serve, stdio).
//
//   npx tsc -b && node bench/rename/flask.mjs [--only name,name]   (a rename's symbol or a move's from-path)
//
// 30 renames (functions, classes, methods) and 5 module moves, each alone on the fresh base tree (git reset between
// them), committed with refactor_commit; after each, `python -m pytest tests` must pass as many tests as on the
// untouched tree and `pyflakes src tests` must report no undefined name the untouched tree does not. Every failure is
// printed with its symbol. The venv (bench/.work/rename/flask-venv: pytest, pyflakes, flask's dependencies) is made
// on first run with pip; flask itself is imported from the tree's src/ (PYTHONPATH), like an editable install.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { benchArgs } from '../cli-args.mjs';
import { ensureGitRepo, treeOf, WORK_DIR } from '../recon/trees.mjs';
import { preview, resetTree, serve } from './session.mjs';

export const FLASK_SHA = '2ac89889f4cc330eabd50f295dcef02828522c69';
const VENV = join(WORK_DIR, 'rename', 'flask-venv');
const PY = join(VENV, 'bin', 'python');

const RENAMES = [
  ['get_debug_flag', 'src/flask/helpers.py'],
  ['get_load_dotenv', 'src/flask/helpers.py'],
  ['stream_with_context', 'src/flask/helpers.py'],
  ['get_template_attribute', 'src/flask/helpers.py'],
  ['get_flashed_messages', 'src/flask/helpers.py'],
  ['send_from_directory', 'src/flask/helpers.py'],
  ['get_root_path', 'src/flask/helpers.py'],
  ['_split_blueprint_path', 'src/flask/helpers.py'],
  ['attach_enctype_error_multidict', 'src/flask/debughelpers.py'],
  ['explain_template_loading_attempts', 'src/flask/debughelpers.py'],
  ['_default_template_ctx_processor', 'src/flask/templating.py'],
  ['render_template_string', 'src/flask/templating.py'],
  ['stream_template_string', 'src/flask/templating.py'],
  ['wsgi_errors_stream', 'src/flask/logging.py'],
  ['has_level_handler', 'src/flask/logging.py'],
  ['create_logger', 'src/flask/logging.py'],
  ['find_best_app', 'src/flask/cli.py'],
  ['find_app_by_string', 'src/flask/cli.py'],
  ['prepare_import', 'src/flask/cli.py'],
  ['show_server_banner', 'src/flask/cli.py'],
  ['DebugFilesKeyError', 'src/flask/debughelpers.py'],
  ['FormDataRoutingRedirect', 'src/flask/debughelpers.py'],
  ['DispatchingJinjaLoader', 'src/flask/templating.py'],
  ['SecureCookieSessionInterface', 'src/flask/sessions.py'],
  ['NoAppException', 'src/flask/cli.py'],
  ['Config.from_prefixed_env', 'src/flask/config.py'],
  ['Config.get_namespace', 'src/flask/config.py'],
  ['SessionInterface.get_cookie_samesite', 'src/flask/sessions.py'],
  ['ScriptInfo.load_app', 'src/flask/cli.py'],
  ['FlaskGroup._load_plugin_commands', 'src/flask/cli.py'],
];
const MOVES = [
  ['src/flask/debughelpers.py', 'src/flask/debug.py'],
  ['src/flask/logging.py', 'src/flask/log.py'],
  ['src/flask/json/tag.py', 'src/flask/tagging.py'],
  ['src/flask/signals.py', 'src/flask/events/signals.py'],
  ['src/flask/templating.py', 'src/flask/rendering/templating.py'],
];

function venv() {
  if (existsSync(PY)) return;
  execFileSync('python3', ['-m', 'venv', VENV], { stdio: 'inherit' });
  execFileSync(
    join(VENV, 'bin', 'pip'),
    [
      'install',
      '-q',
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
    ],
    { stdio: 'inherit' },
  );
}

function workTree() {
  const dir = join(WORK_DIR, 'rename', 'flask');
  if (!existsSync(join(dir, 'pyproject.toml'))) cpSync(treeOf('pallets/flask', FLASK_SHA), dir, { recursive: true });
  ensureGitRepo(dir);
  resetTree(dir);
  return dir;
}

function pytest(dir) {
  const run = spawnSync(PY, ['-m', 'pytest', 'tests', '-q', '-p', 'no:cacheprovider'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: join(dir, 'src') },
    maxBuffer: 1 << 26,
  });
  const out = `${run.stdout}\n${run.stderr}`;
  const count = (word) =>
    Number(
      new RegExp(`(\\d+) ${word}`).exec(
        out
          .split('\n')
          .filter((l) => /(passed|failed|error)/.test(l))
          .pop() ?? '',
      )?.[1] ?? 0,
    );
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
    .filter((l) => /undefined name|unable to detect undefined names|invalid syntax/.test(l))
    .map((l) => l.replace(/:\d+:\d+:?/, ':'));
}

const { values } = benchArgs(import.meta.url, { options: { only: { type: 'string' } } });
const only = values.only?.split(',');

venv();
const dir = workTree();
const session = await serve(dir);
const { call } = session;
const basePytest = pytest(dir);
const baseFlakes = undefinedNames(dir);
console.log(
  JSON.stringify({ commit: FLASK_SHA, baseline: { pytest: basePytest, undefined_names: baseFlakes.length } }),
);
const failures = [];
let done = 0;
const jobs = [
  ...RENAMES.map(([symbol, path]) => ({ kind: 'rename', symbol, path, name: symbol })),
  ...MOVES.map(([from, to]) => ({ kind: 'move', from, to, name: from })),
].filter((job) => !only || only.includes(job.name));
for (const job of jobs) {
  resetTree(dir);
  await new Promise((resolve) => setTimeout(resolve, 1500)); // the watcher re-indexes the reset tree
  const label = job.kind === 'rename' ? `rename ${job.symbol}` : `move ${job.from} -> ${job.to}`;
  const started = performance.now();
  const { result } =
    job.kind === 'rename'
      ? await preview(
          call,
          'refactor_rename',
          { symbol: job.symbol, new_name: `${job.symbol.split('.').pop()}_renamed`, justification: 'bench' },
          null,
        )
      : { result: await call('refactor_move', { from_path: job.from, to_path: job.to, justification: 'bench' }) };
  const previewMs = Math.round(performance.now() - started);
  if (!result?.refactor_id) {
    failures.push({ job: label, error: result?.error?.code, message: result?.error?.message?.slice(0, 200) });
    console.log(
      JSON.stringify({ job: label, error: result?.error?.code, message: result?.error?.message?.slice(0, 200) }),
    );
    continue;
  }
  // this line measures the engine's edits as they were always applied: every hunk, medium and low accepted
  const committed = await call('refactor_commit', { refactor_id: result.refactor_id, accept: { certainty: 'low' } });
  if (committed?.error) {
    failures.push({ job: label, commit_error: committed.error.code });
    console.log(JSON.stringify({ job: label, commit_error: committed.error.code, message: committed.error.message }));
    continue;
  }
  const tests = pytest(dir);
  const flakes = undefinedNames(dir).filter((line) => !baseFlakes.includes(line));
  const ok = tests.passed === basePytest.passed && tests.failed === basePytest.failed && flakes.length === 0;
  if (ok) done += 1;
  else
    failures.push({
      job: label,
      passed: tests.passed,
      failed: tests.failed,
      new_undefined: flakes.slice(0, 5),
      pytest: tests.tail,
    });
  console.log(
    JSON.stringify({
      job: label,
      counts: result.preview.counts,
      files: committed.files_changed.length,
      preview_ms: previewMs,
      passed: tests.passed,
      failed: tests.failed,
      new_undefined: flakes.length,
      ok,
    }),
  );
}
resetTree(dir);
await session.close();
console.log(
  JSON.stringify({
    summary: { commit: FLASK_SHA, jobs: jobs.length, ok: done, baseline_passed: basePytest.passed, failures },
  }),
);
console.log(
  `\n| flask ${FLASK_SHA.slice(0, 8)} | ` +
    `${done}/${jobs.length} refactors keep pytest at ` +
    `${basePytest.passed} passed and add no undefined name |\nfailures:\n` +
    `${failures.map((f) => `  ${JSON.stringify(f)}`).join('\n') || '  none'}\ncommand: ` +
    `npx tsc -b && node bench/rename/flask.mjs`,
);
