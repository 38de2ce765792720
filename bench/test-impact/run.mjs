#!/usr/bin/env node
// Test-impact bench: per-test coverage once, then single-point mutants of non-test source, each run
// against the whole suite to find the tests it fails, and three selectors compared on them:
// blast_radius (max_hops 0/1/2), the import-graph selector (jest --findRelatedTests), the whole suite.
//
// node bench/test-impact/run.mjs [--repos express,flask] [--mutants 150] [--seed 14] [--deadline ISO] [--score-only]
// [--work DIR]
//
// Trees, dependencies and per-mutant results live under bench/.work/test-impact/ (never committed);
// a rerun resumes from the results already there.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchArgs } from '../cli-args.mjs';
import { silentLogger } from '@agentgov/core';
import { LANGUAGE_PACKS as ECMASCRIPT } from '@agentgov/plugin-language-typescript';
import { LANGUAGE_PACKS as PYTHON } from '@agentgov/plugin-language-python';
import { createMochaRunner } from '@agentgov/plugin-testrunner-mocha';
import { createPytestRunner } from '@agentgov/plugin-testrunner-pytest';
import { CoverageStore, blastRadius, openRepositoryIndex, testFilesReaching } from '@agentgov/server';
import { mirrorOf, WORK_DIR } from '../recon/trees.mjs';
import { mutationPoints, sample } from './mutants.mjs';

const REPOS = {
  express: {
    repo: 'expressjs/express',
    sha: 'a3714473feb3d2908add734d340e7755fd85e0a3',
    runner: () => createMochaRunner(),
    source: (file) => /^(lib\/.*|index)\.js$/.test(file),
    setup(root) {
      if (!existsSync(join(root, 'node_modules/mocha')))
        execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], {
          cwd: root,
          stdio: 'inherit',
        });
    },
  },
  flask: {
    repo: 'pallets/flask',
    sha: '2ac89889f4cc330eabd50f295dcef02828522c69',
    runner: () => createPytestRunner(),
    source: (file) => /^src\/flask\/.*\.py$/.test(file),
    setup(root) {
      const python = join(root, '.venv/bin/python');
      if (existsSync(python)) return;
      const pip = (...args) =>
        execFileSync(python, ['-m', 'pip', 'install', '--quiet', '--retries', '1', ...args], {
          cwd: root,
          stdio: 'inherit',
        });
      execFileSync('python3', ['-m', 'venv', join(root, '.venv')], { stdio: 'inherit' });
      pip(
        'blinker>=1.9.0',
        'click>=8.1.3',
        'itsdangerous>=2.2.0',
        'jinja2>=3.1.2',
        'markupsafe>=2.1.1',
        'werkzeug>=3.1.0',
        'pytest<9',
        'coverage>=7',
        'asgiref',
        'greenlet',
        'python-dotenv',
        'flit_core',
      );
      // flask's own metadata (tests read its version); built with the flit_core present, no isolated build.
      pip('--no-build-isolation', '--no-deps', '-e', '.');
    },
  },
};

const { values: options } = benchArgs(import.meta.url, {
  options: {
    repos: { type: 'string', default: 'express,flask' },
    mutants: { type: 'string', default: '150' },
    seed: { type: 'string', default: '14' },
    deadline: { type: 'string' },
    // another work directory (e.g. a copy, to re-score while a run goes on in the default one)
    work: { type: 'string' },
    // score the mutants already run, run no new ones
    'score-only': { type: 'boolean', default: false },
  },
});
const deadline = options.deadline ? Date.parse(options.deadline) : Infinity;
const BENCH_DIR = options.work ?? join(WORK_DIR, 'test-impact');

function git(root, ...args) {
  return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The tree at the pinned commit, a git repository with that tree committed, deps installed. */
function prepareTree(name, spec) {
  const root = join(BENCH_DIR, name);
  if (!existsSync(join(root, '.git'))) {
    mkdirSync(root, { recursive: true });
    execFileSync('sh', [
      '-c',
      `git -C ${JSON.stringify(mirrorOf(spec.repo))} archive ${spec.sha} | tar -x -C ${JSON.stringify(root)}`,
    ]);
    git(root, 'init', '-q');
    writeFileSync(join(root, '.git/info/exclude'), 'node_modules/\n.venv/\n.agentgov/\n*.egg-info/\n');
    git(root, 'add', '-A');
    git(
      root,
      '-c',
      'user.name=bench',
      '-c',
      'user.email=bench@example.invalid',
      'commit',
      '-q',
      '--no-verify',
      '-m',
      `${spec.repo}@${spec.sha}`,
    );
  }
  git(root, 'checkout', '-q', '--', '.');
  spec.setup(root);
  return root;
}

const pct = (n, d) => (d ? `${((100 * n) / d).toFixed(1)}%` : 'n/a');
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

async function benchRepo(name, spec) {
  const root = prepareTree(name, spec);
  const runner = spec.runner();
  const resultsFile = join(BENCH_DIR, `${name}-mutants.jsonl`);
  const baseFile = join(BENCH_DIR, `${name}-base.json`);
  const index = await openRepositoryIndex({
    root,
    languages: [...ECMASCRIPT, ...PYTHON],
    logger: silentLogger,
    exclude: ['.venv/**', 'node_modules/**'],
  });
  await index.ready;
  const store = new CoverageStore(index.db, root);
  const testFiles = new Set(await runner.discover(root));

  let base;
  if (existsSync(baseFile) && store.hasCoverage()) base = JSON.parse(readFileSync(baseFile, 'utf8'));
  else {
    console.log(`# ${name}: plain suite run, then the suite with per-test coverage`);
    const plain = await runner.run(root, { files: [] });
    const covered = await runner.run(root, { files: [], coverage: true });
    store.recordResults(runner.name, covered.tests);
    const stored = store.recordCoverage(runner.name, covered.coverage ?? []);
    base = {
      plainMs: plain.durationMs,
      coverageMs: covered.durationMs,
      tests: plain.tests.map((t) => ({ id: t.id, file: t.file, status: t.status, durationMs: t.durationMs })),
      coverageTests: covered.tests.length,
      coverageFacts: stored.facts,
      coverageEntries: covered.coverage?.length ?? 0,
    };
    writeFileSync(baseFile, JSON.stringify(base));
  }
  const passing = new Set(base.tests.filter((t) => t.status === 'passed').map((t) => t.id));
  const duration = new Map(base.tests.map((t) => [t.id, t.durationMs]));
  const testsOfFile = new Map();
  for (const t of base.tests) testsOfFile.set(t.file, [...(testsOfFile.get(t.file) ?? []), t.id]);
  const suiteIds = base.tests.map((t) => t.id);

  const sources = git(root, 'ls-files').split('\n').filter(spec.source);
  const points = sources.flatMap((file) => mutationPoints(file, readFileSync(join(root, file), 'utf8')));
  // Mutants that do not compile are replaced by the next draw (counted), so N mutants all load.
  const checker =
    name === 'flask' ? [join(root, '.venv/bin/python'), ['-m', 'py_compile']] : [process.execPath, ['--check']];
  const compiles = (file, text) => {
    const probe = join(BENCH_DIR, `probe-${name}${file.slice(file.lastIndexOf('.'))}`);
    writeFileSync(probe, text);
    try {
      execFileSync(checker[0], [...checker[1], probe], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  const mutants = [];
  let nonCompiling = 0;
  for (const m of sample(points, points.length, Number(options.seed))) {
    if (mutants.length >= Number(options.mutants)) break;
    const lines = readFileSync(join(root, m.file), 'utf8').split('\n');
    lines[m.line - 1] = m.after;
    if (compiles(m.file, lines.join('\n'))) mutants.push({ id: mutants.length, ...m });
    else nonCompiling++;
  }
  console.log(`# ${name}: ${nonCompiling} drawn mutants did not compile and were replaced`);
  const done = new Map(
    existsSync(resultsFile)
      ? readFileSync(resultsFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
          .map((r) => [r.id, r])
      : [],
  );
  console.log(
    `# ${name}: ${sources.length} source files, ` +
      `${points.length} mutation points, ${mutants.length} mutants sampled (seed ` +
      `${options.seed}), ${done.size} already run`,
  );

  const fileGraph = index.fileGraph();
  const defGraph = index.defGraph();
  const isTestFile = (path) => testFiles.has(path);
  for (const mutant of mutants) {
    if (done.has(mutant.id)) continue;
    if (options['score-only']) break;
    if (Date.now() > deadline) {
      console.log(`# ${name}: deadline reached after ${done.size} mutants`);
      break;
    }
    const absolute = join(root, mutant.file);
    const original = readFileSync(absolute, 'utf8');
    const lines = original.split('\n');
    lines[mutant.line - 1] = mutant.after;
    writeFileSync(absolute, lines.join('\n'));
    let record;
    try {
      const started = Date.now();
      let run;
      try {
        run = await runner.run(root, { files: [], timeoutMs: Math.max(60_000, base.plainMs * 3) });
      } catch (error) {
        run = { tests: [], timedOut: false, error: error.message };
      }
      const failing = run.tests.filter((t) => t.status === 'failed' && passing.has(t.id)).map((t) => t.id);
      const status = run.timedOut
        ? 'timeout'
        : run.tests.length < base.tests.length / 2
          ? 'invalid'
          : failing.length
            ? 'killed'
            : 'survived';
      record = {
        id: mutant.id,
        file: mutant.file,
        line: mutant.line,
        kind: mutant.kind,
        after: mutant.after.trim(),
        status,
        failing,
        runMs: Date.now() - started,
      };
    } finally {
      writeFileSync(absolute, original);
    }
    appendFileSync(resultsFile, `${JSON.stringify(record)}\n`);
    done.set(mutant.id, record);
    if (done.size % 10 === 0) console.log(`#   ${name}: ${done.size}/${mutants.length} mutants`);
  }
  // Selections are computed after the runs, for every mutant with the same code, so a ranking change re-scores all.
  const records = [...done.values()].filter((r) =>
    mutants.some((m) => m.id === r.id && m.line === r.line && m.file === r.file),
  );
  const selectStarted = performance.now();
  // only mutants that fail a test are scored (the selectors are compared on those)
  for (const record of records.filter((r) => r.status === 'killed')) {
    const mutant = mutants.find((m) => m.id === record.id);
    const absolute = join(root, mutant.file);
    const original = readFileSync(absolute, 'utf8');
    const lines = original.split('\n');
    lines[mutant.line - 1] = mutant.after;
    writeFileSync(absolute, lines.join('\n'));
    try {
      record.selections = {};
      for (const hops of [0, 1, 2]) {
        const result = await blastRadius({
          root,
          changedFiles: [mutant.file],
          maxHops: hops,
          store,
          languages: [...ECMASCRIPT, ...PYTHON],
          defGraph,
          fileGraph,
          definition: (uid) => index.definition(uid),
          runner,
          isTestFile,
        });
        const ordered = [];
        const seen = new Set();
        for (const c of result.candidates)
          for (const id of testsOfFile.has(c.test_id) ? testsOfFile.get(c.test_id) : [c.test_id])
            if (!seen.has(id)) (seen.add(id), ordered.push(id));
        record.selections[`blast_radius_${hops}`] = ordered;
      }
      record.selections.import_graph = [...testFilesReaching(fileGraph, mutant.file, isTestFile).keys()].flatMap(
        (f) => testsOfFile.get(f) ?? [],
      );
    } finally {
      writeFileSync(absolute, original);
    }
  }
  const queries = records.filter((r) => r.status === 'killed').length * 3;
  console.log(
    `# ${name}: blast_radius answered ${queries} queries in ` +
      `${((performance.now() - selectStarted) / 1000).toFixed(1)} s (` +
      `${((performance.now() - selectStarted) / Math.max(1, queries)).toFixed(0)} ` +
      `ms each, including git diff and parsing)`,
  );
  await index.close();
  report(name, spec, base, records, suiteIds, duration);
}

function report(name, spec, base, records, suiteIds, duration) {
  const killed = records.filter((r) => r.status === 'killed');
  const suiteMs = suiteIds.reduce((sum, id) => sum + (duration.get(id) ?? 0), 0);
  console.log(`\n## ${spec.repo}@${spec.sha.slice(0, 12)} (${name})`);
  console.log(
    `suite: ${suiteIds.length} test cases; plain run ` +
      `${(base.plainMs / 1000).toFixed(1)} s, with per-test coverage ` +
      `${(base.coverageMs / 1000).toFixed(1)} s (` +
      `${(base.coverageMs / base.plainMs).toFixed(2)}x); ` +
      `${base.coverageFacts} coverage facts`,
  );
  const counts = Object.fromEntries(
    ['killed', 'survived', 'invalid', 'timeout'].map((s) => [s, records.filter((r) => r.status === s).length]),
  );
  console.log(
    `mutants: ${records.length} run: ${counts.killed} fail ≥1 test, ` +
      `${counts.survived} fail none, ${counts.invalid} do not load, ` +
      `${counts.timeout} time out`,
  );
  console.log(
    '| selector | failing mutants caught | failing tests selected | selected ' +
      'tests / suite (mean) | est. time of selection / suite (mean) |',
  );
  console.log('|---|---|---|---|---|');
  const rows = [
    ['blast_radius max_hops 0', 'blast_radius_0'],
    ['blast_radius max_hops 1', 'blast_radius_1'],
    ['blast_radius max_hops 2', 'blast_radius_2'],
    ['import graph (findRelatedTests)', 'import_graph'],
    ['whole suite', null],
  ];
  for (const [label, key] of rows) {
    const select = (r) => (key ? r.selections[key] : suiteIds);
    const caught = killed.filter((r) => select(r).some((id) => r.failing.includes(id))).length;
    const failingSel = killed.reduce((s, r) => s + r.failing.filter((id) => select(r).includes(id)).length, 0);
    const failingAll = killed.reduce((s, r) => s + r.failing.length, 0);
    const share = mean(killed.map((r) => select(r).length / suiteIds.length));
    const time = mean(killed.map((r) => select(r).reduce((s, id) => s + (duration.get(id) ?? 0), 0) / suiteMs));
    console.log(
      `| ${label} | ${pct(caught, killed.length)} (` +
        `${caught}/${killed.length}) | ${pct(failingSel, failingAll)} | ` +
        `${(share * 100).toFixed(1)}% (${mean(killed.map((r) => select(r).length)).toFixed(1)} ` +
        `tests) | ${(time * 100).toFixed(1)}% |`,
    );
  }
  for (const k of [10, 25]) {
    const caught = killed.filter((r) =>
      r.selections.blast_radius_0.slice(0, k).some((id) => r.failing.includes(id)),
    ).length;
    console.log(
      `blast_radius max_hops 0, first ${k} candidates: ` +
        `${pct(caught, killed.length)} (${caught}/` +
        `${killed.length}) of failing mutants caught`,
    );
  }
  const ratio = mean(
    killed.map((r) => r.selections.blast_radius_0.length / Math.max(1, r.selections.import_graph.length)),
  );
  console.log(
    `blast_radius max_hops 0 selects on average ` +
      `${(ratio * 100).toFixed(1)}% of the tests the import-graph selector picks`,
  );
  const missed = killed.filter((r) => !r.selections.blast_radius_0.some((id) => r.failing.includes(id)));
  for (const r of missed.slice(0, 10))
    console.log(
      `  missed at hops 0: ${r.file}:${r.line} ` +
        `${r.kind} \`${r.after.slice(0, 80)}\` (` +
        `${r.failing.length} failing tests)`,
    );
}

for (const name of options.repos.split(',')) {
  if (!REPOS[name]) throw new Error(`unknown repo ${name}; known: ${Object.keys(REPOS).join(', ')}`);
  await benchRepo(name, REPOS[name]);
}
