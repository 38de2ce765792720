import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AgentgovError,
  COVERAGE_ENV,
  defineTestRunner,
  fileResultOf,
  makeRunDirectory,
  processLimits,
  runTestProcess,
  type TestCaseResult,
  type TestCoverage,
  type TestFileResult,
  type TestRunner,
  type TestRunReport,
  type TestRunRequest,
} from '@agentgov/core';
import { pytestFiles, readPytestSetup, usesPytest } from './pytest-config.js';

const PLUGIN_DIR = fileURLToPath(new URL('../../assets/', import.meta.url));

export interface PytestRunnerOptions {
  /** The Python interpreter; default: $AGENTGOV_PYTHON, else the project's .venv/venv, else `python3`. */
  python?: string;
}

interface PhaseRecord {
  kind: 'test' | 'collect';
  nodeid: string;
  when?: 'setup' | 'call' | 'teardown';
  outcome: 'passed' | 'failed' | 'skipped';
  duration?: number;
  longrepr?: string | null;
  message?: string | null;
}

/** The interpreter for a project: the option, $AGENTGOV_PYTHON, the project's virtual environment, or python3. */
export function pythonOf(root: string, options: PytestRunnerOptions): string {
  if (options.python) return options.python;
  if (process.env['AGENTGOV_PYTHON']) return process.env['AGENTGOV_PYTHON'];
  for (const venv of ['.venv', 'venv']) {
    const candidate = join(root, venv, 'bin', 'python');
    if (existsSync(candidate)) return candidate;
  }
  return 'python3';
}

/** One result per node id: failed if any phase failed, skipped if setup or call skipped, durations summed. */
export function casesOf(records: PhaseRecord[]): TestCaseResult[] {
  const cases = new Map<string, TestCaseResult>();
  for (const record of records) {
    if (record.kind !== 'test') continue;
    let result = cases.get(record.nodeid);
    if (!result) {
      const [file, ...rest] = record.nodeid.split('::');
      result = { id: record.nodeid, file: file!, titlePath: rest, status: 'passed', durationMs: 0 };
      cases.set(record.nodeid, result);
    }
    result.durationMs += Math.round((record.duration ?? 0) * 1000);
    if (record.outcome === 'failed') {
      result.status = 'failed';
      result.failure ??= {
        message: record.message ?? 'failed',
        ...(record.longrepr ? { stack: record.longrepr } : {}),
      };
    } else if (record.outcome === 'skipped' && result.status !== 'failed') result.status = 'skipped';
  }
  return [...cases.values()];
}

/** coverage.py contexts → `TestCoverage`: a node id context is that test; the empty context is import time. */
export function coverageOf(byFile: Record<string, Record<string, number[]>>): TestCoverage[] {
  const entries = new Map<string, TestCoverage>();
  for (const [file, contexts] of Object.entries(byFile)) {
    for (const [context, lines] of Object.entries(contexts)) {
      const scope = context === '' ? 'file' : 'test';
      const id = context === '' ? '*' : context;
      let entry = entries.get(`${scope}\0${id}`);
      if (!entry) entries.set(`${scope}\0${id}`, (entry = { scope, id, files: [] }));
      entry.files.push({ file, lines: [...lines].sort((a, b) => a - b) });
    }
  }
  return [...entries.values()];
}

function fileResults(files: string[], tests: TestCaseResult[], collectErrors: PhaseRecord[]): TestFileResult[] {
  const all = [...new Set([...files, ...tests.map((t) => t.file)])].sort();
  return all.map((file) => {
    const error = collectErrors.find((record) => record.nodeid === file || record.nodeid.startsWith(`${file}::`));
    if (error) return { file, status: 'error', durationMs: 0, output: error.longrepr ?? '' };
    return fileResultOf(file, tests);
  });
}

export function createPytestRunner(options: PytestRunnerOptions = {}): TestRunner {
  return defineTestRunner({
    name: 'pytest',
    detect: usesPytest,
    testFiles: (root) => pytestFiles(root, readPytestSetup(root)),
    isTestFile(_root, file) {
      const name = file.split('/').pop() ?? '';
      return file.endsWith('.py') && (/^test_.*\.py$/.test(name) || /_test\.py$/.test(name) || name === 'conftest.py');
    },
    // A test is selected by its node id (`file::Class::test`).
    shell: { command: 'python -m pytest', filter: (pattern) => `-k ${pattern}`, select: 'id' },
    run: (root, request) => runPytest(resolve(root), request, pythonOf(resolve(root), options)),
  });
}

async function runPytest(root: string, request: TestRunRequest, python: string): Promise<TestRunReport> {
  const setup = readPytestSetup(root);
  const run = makeRunDirectory();
  try {
    const results = join(run.path, 'results.jsonl');
    const coverageDir = join(run.path, 'coverage');
    const args = [
      '-m',
      'pytest',
      '-p',
      'agentgov_pytest',
      '-p',
      'no:cacheprovider',
      '-q',
      '--no-header',
      '-rN',
      ...(request.nameFilter ? ['-k', request.nameFilter] : []),
      ...request.files,
    ];
    const env: Record<string, string> = {
      ...request.env,
      AGENTGOV_PYTEST_RESULTS: results,
      PYTHONPATH: [PLUGIN_DIR, process.env['PYTHONPATH'], request.env?.['PYTHONPATH']].filter(Boolean).join(':'),
      PYTHONDONTWRITEBYTECODE: '1',
    };
    if (request.coverage) {
      Object.assign(env, { [COVERAGE_ENV.root]: root, [COVERAGE_ENV.out]: coverageDir });
      mkdirSync(coverageDir, { recursive: true });
    }
    let outcome;
    try {
      outcome = await runTestProcess(python, args, { cwd: root, env, ...processLimits(request) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new AgentgovError('E_TEST_RUNNER_MISSING', `pytest: the Python interpreter \`${python}\` was not found`, {
          runner: 'pytest',
          python,
        });
      throw error;
    }
    const missing = /No module named '?(pytest|coverage)'?/.exec(outcome.output);
    if (missing) {
      throw new AgentgovError(
        'E_TEST_RUNNER_MISSING',
        `pytest: \`${python}\` has no ${missing[1]} module; install it (\`${python} -m pip install pytest coverage\`)`,
        { runner: 'pytest', python, module: missing[1] },
      );
    }
    // Exit 3 (internal error) and 4 (usage error, e.g. a broken ini section) stop pytest before any test.
    if (outcome.exitCode === 4 || outcome.exitCode === 3 || (!existsSync(results) && !outcome.timedOut)) {
      throw new AgentgovError(
        'E_TEST_CONFIG_INVALID',
        `pytest: the run stopped before any test (exit ` +
          `${outcome.exitCode}); check ${setup.source ?? 'the pytest config'}: ` +
          `${outcome.output.trim().split('\n').slice(-8).join('\n')}`,
        {
          runner: 'pytest',
          file: setup.source ?? null,
          command: `${python} -m pytest ${request.files.join(' ')}`.trim(),
        },
      );
    }
    const records = existsSync(results)
      ? readFileSync(results, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as PhaseRecord)
      : [];
    const tests = casesOf(records);
    const coverageFile = join(coverageDir, 'coverage-py.json');
    return {
      runner: 'pytest',
      tests,
      files: fileResults(
        request.files.filter((f) => f.endsWith('.py')),
        tests,
        records.filter((r) => r.kind === 'collect'),
      ),
      ...(request.coverage && existsSync(coverageFile)
        ? {
            coverage: coverageOf(
              JSON.parse(readFileSync(coverageFile, 'utf8')) as Record<string, Record<string, number[]>>,
            ),
            coverageGranularity: 'test' as const,
          }
        : {}),
      ...outcome,
    };
  } finally {
    run.dispose();
  }
}
