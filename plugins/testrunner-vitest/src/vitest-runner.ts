import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AgentgovError,
  defineTestRunner,
  fileResultOf,
  lastLines,
  runForAnswerFile,
  runReport,
  type TestCaseResult,
  type TestCoverage,
  type TestFileResult,
  type TestProcessResult,
  type TestRunner,
  type TestRunReport,
  type TestRunRequest,
} from '@agentgov/core';
import { globSync } from 'tinyglobby';
import type { DriverAnswer, DriverRequest } from './vitest-driver.js';

const DRIVER = fileURLToPath(new URL('./vitest-driver.js', import.meta.url));
const COVERAGE_SETUP = fileURLToPath(new URL('./coverage-setup.js', import.meta.url));

/** The config files vitest itself looks for, in its order. */
export const VITEST_CONFIG_FILES = ['vitest.config', 'vite.config'].flatMap((base) =>
  ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'].map((ext) => `${base}.${ext}`),
);

/** Vitest's default `include` (`**\/*.{test,spec}.?(c|m)[jt]s?(x)`), for `isTestFile` before a discovery ran. */
const DEFAULT_TEST_FILE = /(^|\/)[^/]+\.(test|spec)\.[cm]?[jt]sx?$/;

type PackageJson = {
  scripts?: Record<string, string>;
  devDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
};

function readPackageJson(root: string): PackageJson {
  try {
    return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;
  } catch {
    return {};
  }
}

/** Whether the project uses vitest: a `vitest.config.*`, a script calling vitest, or a vitest dependency. */
export function usesVitest(root: string): boolean {
  if (VITEST_CONFIG_FILES.some((name) => name.startsWith('vitest.') && existsSync(join(root, name)))) return true;
  const pkg = readPackageJson(root);
  if (Object.values(pkg.scripts ?? {}).some((script) => /(^|[\s/;&|])vitest(\s|$)/.test(script))) return true;
  return Boolean(pkg.devDependencies?.['vitest'] ?? pkg.dependencies?.['vitest']);
}

/** The project's vitest version; throws `E_TEST_RUNNER_MISSING` naming vitest when it is not installed there. */
export function projectVitestVersion(root: string): string {
  try {
    return (createRequire(join(root, 'package.json'))('vitest/package.json') as { version: string }).version;
  } catch {
    throw new AgentgovError(
      'E_TEST_RUNNER_MISSING',
      `vitest: the runner is not installed in ${root} (no node_modules/vitest); run \`npm install\` there`,
      { runner: 'vitest' },
    );
  }
}

function configName(root: string): string {
  return VITEST_CONFIG_FILES.find((name) => existsSync(join(root, name))) ?? 'the vitest config';
}

export function createVitestRunner(): TestRunner {
  /**
   * Per root, from its last discovery: the files vitest selected, and those vitest's default pattern
   * matches but the project's config leaves out. `isTestFile` answers from them without a process; a
   * file in neither (added since) counts as a test when the default pattern matches it.
   */
  const discovered = new Map<string, { selected: Set<string>; rejected: Set<string> }>();
  return defineTestRunner({
    name: 'vitest',
    detect: usesVitest,
    async testFiles(root) {
      const answer = await drive(root, { mode: 'discover' }, {});
      const selected = new Set(answer.files);
      const defaults = globSync(['**/*.{test,spec}.?(c|m)[jt]s?(x)'], {
        cwd: root,
        ignore: ['**/node_modules/**'],
        onlyFiles: true,
        expandDirectories: false,
      });
      discovered.set(root, { selected, rejected: new Set(defaults.filter((file) => !selected.has(file))) });
      return answer.files;
    },
    isTestFile(root, file) {
      const known = discovered.get(root);
      if (known?.selected.has(file)) return true;
      return DEFAULT_TEST_FILE.test(file) && !file.includes('node_modules/') && !known?.rejected.has(file);
    },
    // vitest's -t matches the full name: suite titles and the test's title joined by spaces.
    shell: { command: 'npx vitest run', filter: (pattern) => `-t ${pattern}`, select: 'path' },
    run: runVitest,
  });
}

type DriverOk = Extract<DriverAnswer, { ok: true }>;

/** Runs the driver in the project; maps its failures to the catalog's errors, naming vitest. */
async function drive(
  root: string,
  request: Omit<DriverRequest, 'root' | 'out'>,
  options: Pick<TestRunRequest, 'signal' | 'timeoutMs' | 'niceness' | 'env' | 'coverage'>,
): Promise<DriverOk & TestProcessResult & { coverage?: TestCoverage[] }> {
  projectVitestVersion(root);
  const { answer, outcome, coverage } = await runForAnswerFile<DriverAnswer>(root, {
    command: process.execPath,
    args: (out) => [DRIVER, JSON.stringify({ ...request, root, out } satisfies DriverRequest)],
    ...(options.env ? { env: options.env } : {}),
    coverage: options.coverage ? 'debugger' : false,
    limits: options,
  });
  if (!answer) {
    if (outcome.timedOut)
      return {
        ok: true,
        version: '',
        config: null,
        files: request.files ?? [],
        tests: [],
        fileErrors: (request.files ?? []).map((file) => ({ file, message: 'timed out' })),
        ...outcome,
      };
    throw new AgentgovError(
      'E_TEST_CONFIG_INVALID',
      `vitest: the run stopped before reporting (exit ` +
        `${outcome.exitCode}); check ${configName(root)}: ` +
        `${lastLines(outcome.output)}`,
      { runner: 'vitest', file: configName(root) },
    );
  }
  if (!answer.ok) {
    if (answer.stage === 'missing')
      throw new AgentgovError('E_TEST_RUNNER_MISSING', `vitest: ${answer.message}`, { runner: 'vitest' });
    throw new AgentgovError(
      'E_TEST_CONFIG_INVALID',
      `vitest: ${configName(root)} was rejected: ${answer.message.trim().split('\n').slice(0, 8).join('\n')}`,
      { runner: 'vitest', file: configName(root), stage: answer.stage },
    );
  }
  return { ...answer, ...outcome, ...(coverage ? { coverage } : {}) };
}

async function runVitest(root: string, request: TestRunRequest): Promise<TestRunReport> {
  const answer = await drive(
    root,
    {
      mode: 'run',
      ...(request.files.length ? { files: request.files } : {}),
      ...(request.nameFilter ? { nameFilter: request.nameFilter } : {}),
      ...(request.coverage ? { setupFile: COVERAGE_SETUP } : {}),
    },
    request,
  );
  const files = request.files.length ? request.files : answer.files;
  const unknown = request.files.filter((file) => !answer.files.includes(file));
  const output = [answer.output, ...(answer.unhandled ?? []).map((message) => `unhandled error: ${message}`)]
    .filter(Boolean)
    .join('\n');
  return runReport(
    'vitest',
    files,
    answer.tests ?? [],
    {
      outcome: { exitCode: answer.exitCode, timedOut: answer.timedOut, durationMs: answer.durationMs, output },
      coverage: request.coverage ? (answer.coverage ?? []) : undefined,
    },
    (file, tests) => fileResult(file, tests, answer.fileErrors ?? [], unknown),
  );
}

/** A file's result: an error for a file vitest does not count as a test file, or one that failed outside its tests. */
function fileResult(
  file: string,
  tests: TestCaseResult[],
  errors: { file: string; message: string }[],
  unknown: string[],
): TestFileResult {
  const own = tests.filter((test) => test.file === file);
  const error = errors.find((e) => e.file === file);
  if (unknown.includes(file))
    return {
      file,
      status: 'error',
      durationMs: 0,
      output: `vitest: ${file} is not a test file of this project (its include/exclude patterns do not select it)`,
    };
  if (error && !own.some((test) => test.status === 'failed'))
    return { file, status: 'error', durationMs: 0, output: error.message };
  return { ...fileResultOf(file, tests), ...(error ? { output: error.message } : {}) };
}
