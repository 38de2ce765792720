// Issue 27's Python cases on pallets/click, through the real MCP tools: renaming `CliRunner.invoke` (every `.invoke`
// on anything was medium), a module-level name click's parser.py also serves through `__getattr__`/`globals()`, and
// moving parser.py (bare `click.parser` attribute uses in the tests).
//
//   npx tsc -b && node bench/rename/click.mjs
//
// Renames: only the preview's `high` hunks are written (by this harness), the preview is cancelled, pytest runs.
// The move is committed with refactor_commit (it has no medium hunk). Each job starts from the fresh base tree. The
// venv (bench/.work/rename/click-venv) gets pytest and flit_core, then click itself as an editable install of the
// work tree without build isolation (the local package index has no flit_core < 4; tests read click's version).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureGitRepo, treeOf, WORK_DIR } from '../recon/trees.mjs';
import { resetTree, serve } from './session.mjs';

const CLICK_SHA = '2c8cd3ac958a7eb316d67f2d316c27086c4c0369';
const DIR = join(WORK_DIR, 'rename', 'click');
const VENV = join(WORK_DIR, 'rename', 'click-venv');
const PY = join(VENV, 'bin', 'python');
const JOBS = [
  { rename: 'CliRunner.invoke' },
  { rename: 'Context.invoke' },
  { rename: '_OptionParser' },
  { move: ['src/click/parser.py', 'src/click/_parser.py'] },
];

if (!existsSync(join(DIR, 'pyproject.toml'))) cpSync(treeOf('pallets/click', CLICK_SHA), DIR, { recursive: true });
ensureGitRepo(DIR);
resetTree(DIR);
if (!existsSync(PY)) {
  execFileSync('python3', ['-m', 'venv', VENV], { stdio: 'inherit' });
  execFileSync(PY, ['-m', 'pip', 'install', '-q', 'pytest<9', 'flit_core'], { stdio: 'inherit' });
  execFileSync(PY, ['-m', 'pip', 'install', '-q', '--no-build-isolation', '--no-deps', '-e', DIR], {
    stdio: 'inherit',
  });
}

function pytest() {
  const run = spawnSync(PY, ['-m', 'pytest', 'tests', '-q', '-p', 'no:cacheprovider'], {
    cwd: DIR,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const summary =
    `${run.stdout}\n${run.stderr}`
      .split('\n')
      .filter((l) => /(passed|failed|error)/.test(l))
      .pop() ?? '';
  const count = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(summary)?.[1] ?? 0);
  return {
    passed: count('passed'),
    failed: count('failed'),
    errors: count('errors?'),
    summary: summary.replace(/=+/g, '').trim(),
  };
}

function applyHigh(preview) {
  for (const file of preview.edits) {
    const hunks = file.hunks.filter((h) => h.certainty === 'high');
    if (hunks.length === 0) continue;
    const abs = join(DIR, file.path);
    const lines = readFileSync(abs, 'utf8').split('\n');
    for (const h of [...hunks].sort(
      (a, b) => b.range.start_line - a.range.start_line || b.range.start_col - a.range.start_col,
    )) {
      const line = lines[h.range.start_line - 1];
      lines[h.range.start_line - 1] = line.slice(0, h.range.start_col) + h.new + line.slice(h.range.end_col);
    }
    writeFileSync(abs, lines.join('\n'));
  }
}

const session = await serve(DIR);
const base = pytest();
console.log(JSON.stringify({ commit: CLICK_SHA, baseline: base }));
const rows = [];
for (const job of JOBS) {
  resetTree(DIR);
  await new Promise((resolve) => setTimeout(resolve, 1500)); // the watcher re-indexes the reset tree
  let result;
  if (job.rename) {
    result = await session.call('refactor_rename', {
      symbol: job.rename,
      new_name: `${job.rename.split('.').pop()}_renamed`,
      justification: 'bench',
    });
    if (!result?.refactor_id) {
      rows.push({ job: job.rename, error: result?.error?.code });
      continue;
    }
    applyHigh(result.preview);
    await session.call('refactor_cancel', { refactor_id: result.refactor_id });
  } else {
    result = await session.call('refactor_move', {
      from_path: job.move[0],
      to_path: job.move[1],
      justification: 'bench',
    });
    const committed = await session.call('refactor_commit', { refactor_id: result.refactor_id });
    if (committed?.error) {
      rows.push({ job: `move ${job.move.join(' -> ')}`, error: committed.error.code });
      continue;
    }
  }
  const tests = pytest();
  const row = {
    job: job.rename ? `rename ${job.rename} (high applied)` : `move ${job.move.join(' -> ')} (committed)`,
    counts: result.preview.counts,
    warnings: result.preview.warnings?.length ?? 0,
    unedited: result.preview.unedited?.length ?? 0,
    passed: tests.passed,
    failed: tests.failed + tests.errors,
  };
  rows.push(row);
  console.log(JSON.stringify(row));
}
resetTree(DIR);
await session.close();
console.log(
  `\n| job | high / medium / low | warnings | unedited | pytest passed / failed ` +
    `(base ${base.passed} / ${base.failed + base.errors}) |`,
);
console.log('|---|---|---|---|---|');
for (const r of rows)
  console.log(
    r.error
      ? `| ${r.job} | ${r.error} | | | |`
      : `| ${r.job} | ${r.counts.high} / ${r.counts.medium} / ` +
          `${r.counts.low} | ${r.warnings} | ${r.unedited} | ` +
          `${r.passed} / ${r.failed} |`,
  );
