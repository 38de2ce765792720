import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COVERAGE_ENV, testCaseId } from '../coverage/per-test-collector.js';
import type { AgentgovPlugin } from '../plugins/plugin.js';
import type {
  ReportedTestCase,
  TestCaseResult,
  TestCoverage,
  TestFileResult,
  TestRunner,
  TestRunReport,
  TestRunRequest,
} from '../contracts/test-runner.js';
import {
  makeRunDirectory,
  readCoverageDirectory,
  runTestProcess,
  type TestProcessOptions,
  type TestProcessResult,
} from './test-process.js';

/** How a person runs the runner in a shell: what `command` and `testCommand` print. */
export interface RunnerShell {
  /** The command that runs the runner from the project's root: `npx mocha`, `node --test`. */
  command: string;
  /** The option that filters by test name, given the pattern already quoted: (p) => `--grep ${p}`. */
  filter(quotedPattern: string): string;
  /**
   * How one test is selected: by its whole title path joined by spaces (`path`, mocha and vitest),
   * by its own title (`title`, node:test), or by its id as an argument (`id`, pytest's node ids).
   */
  select: 'path' | 'title' | 'id';
}

/** What a test-runner plugin writes: its own logic; `defineTestRunner` makes the `TestRunner` of it. */
export interface TestRunnerSpec {
  name: string;
  /** Whether the project at `root` uses this runner. */
  detect(root: string): boolean | Promise<boolean>;
  /** The project's test files, sorted, as its own config selects them. */
  testFiles(root: string): string[] | Promise<string[]>;
  /** Whether `file` is a test file; default: whether the (synchronous) `testFiles` lists it. */
  isTestFile?(root: string, file: string): boolean;
  shell: RunnerShell;
  run(root: string, request: TestRunRequest): Promise<TestRunReport>;
}

const quote = (text: string): string => JSON.stringify(text);
const escapeForFilter = (title: string): string => title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A `TestRunner` from its spec: discovery, the shell commands a person can paste, and the run. */
export function defineTestRunner(spec: TestRunnerSpec): TestRunner {
  const { command, filter, select } = spec.shell;
  return {
    name: spec.name,
    detect: async (root) => spec.detect(root),
    discover: async (root) => spec.testFiles(root),
    isTestFile: spec.isTestFile ?? listedInThisTurn(spec),
    command(files, nameFilter) {
      const filtered = nameFilter ? ` ${filter(quote(nameFilter))}` : '';
      return `${command}${filtered} ${files.map(quote).join(' ')}`.trimEnd();
    },
    testCommand(test) {
      if (select === 'id') return `${command} ${quote(test.id)}`;
      const title = escapeForFilter((select === 'title' ? [test.titlePath.at(-1)!] : test.titlePath).join(' '));
      return `${command} ${filter(quote(`^${title}$`))} ${quote(test.file)}`;
    },
    run: (root, request) => spec.run(root, request),
  };
}

/**
 * The default `isTestFile`: whether the (synchronous) `testFiles` lists the file. Callers ask it file by file in a
 * loop (every importer of a changed file, every path of a blast radius), and `testFiles` walks the project: so the
 * list is made once per root and kept until the event loop turns — one snapshot of the project per synchronous run,
 * which a walk per file would not give more exactly; a file added since is seen once the loop has turned.
 */
function listedInThisTurn(spec: TestRunnerSpec): (root: string, file: string) => boolean {
  const listed = new Map<string, ReadonlySet<string> | null>();
  return (root, file) => {
    let files = listed.get(root);
    if (files === undefined) {
      try {
        const list = spec.testFiles(root);
        files = Array.isArray(list) ? new Set(list) : null;
      } catch {
        files = null;
      }
      listed.set(root, files);
      setImmediate(() => listed.delete(root)).unref();
    }
    return files?.has(file) ?? false;
  };
}

/**
 * A plugin that registers one test runner under its own name, e.g.
 * `export default testRunnerPlugin({ name: 'testrunner-mocha', create: createMochaRunner })`.
 * Its options (validated against `optionsSchema`, default: none allowed) go to `create`.
 */
export function testRunnerPlugin<Options = Record<string, never>>(plugin: {
  name: string;
  optionsSchema?: object;
  create(options: Options): TestRunner;
}): AgentgovPlugin<Options> {
  return {
    name: plugin.name,
    optionsSchema: plugin.optionsSchema ?? { type: 'object', additionalProperties: false, properties: {} },
    apply(hooks, context) {
      hooks.testRunners.tap(plugin.name, (registry) => registry.add(plugin.create(context.options)));
    },
  };
}

/** The limits of a run request, as `runTestProcess` takes them (only those the request sets). */
export function processLimits(
  request: Pick<TestRunRequest, 'signal' | 'timeoutMs' | 'niceness'>,
): Omit<TestProcessOptions, 'cwd' | 'env'> {
  return {
    ...(request.signal ? { signal: request.signal } : {}),
    ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
    ...(request.niceness ? { niceness: request.niceness } : {}),
  };
}

/** The last lines of a run's output, for an error message. */
export function lastLines(text: string, count = 12): string {
  return text.trim().split('\n').slice(-count).join('\n');
}

/** The report of a run that timed out before the runner reported anything: every file an error. */
export function timedOutReport(runner: string, files: string[], outcome: TestProcessResult): TestRunReport {
  return {
    runner,
    tests: [],
    files: files.map((file) => ({ file, status: 'error', durationMs: outcome.durationMs, output: 'timed out' })),
    exitCode: null,
    timedOut: true,
    durationMs: outcome.durationMs,
    output: outcome.output,
  };
}

/** A file's result from its tests: failed when one failed, its duration their sum. */
export function fileResultOf(file: string, tests: TestCaseResult[]): TestFileResult {
  const own = tests.filter((test) => test.file === file);
  return {
    file,
    status: own.some((test) => test.status === 'failed') ? 'failed' : 'passed',
    durationMs: own.reduce((sum, test) => sum + test.durationMs, 0),
    output: '',
  };
}

/**
 * A run's report from the cases its reporter gave: each case named by `testCaseId`, each file's result from its cases
 * (`fileResult`, default `fileResultOf`, for a runner that knows more of a file, such as an error outside any test),
 * the lines each test ran when coverage was collected, and the process's outcome.
 */
export function runReport(
  runner: string,
  files: string[],
  cases: ReportedTestCase[],
  run: { outcome: TestProcessResult; coverage?: TestCoverage[] | undefined },
  fileResult: (file: string, tests: TestCaseResult[]) => TestFileResult = fileResultOf,
): TestRunReport {
  const tests = cases.map((test) => ({ id: testCaseId(test.file, test.titlePath), ...test }));
  return {
    runner,
    tests,
    files: files.map((file) => fileResult(file, tests)),
    ...(run.coverage ? { coverage: run.coverage, coverageGranularity: 'test' as const } : {}),
    ...run.outcome,
  };
}

/** What a runner process that answers in a file gave: its answer (undefined when it wrote none), outcome, coverage. */
export interface AnswerFileRun<Answer> {
  answer: Answer | undefined;
  outcome: TestProcessResult;
  /** With `coverage` asked and an answer written: the lines each test ran (agentgov's V8 collector). */
  coverage?: TestCoverage[];
}

/**
 * One run of a test process that writes its answer as JSON to a file agentgov names, in a fresh run
 * directory removed afterwards: the process gets the file's path through `args` (or the `answerEnv`
 * variable), agentgov's coverage collector's variables when `coverage` is asked (`debugger`: read
 * each script's source from V8, for loaders that transform what runs), and the request's limits.
 */
export async function runForAnswerFile<Answer>(
  root: string,
  options: {
    command: string;
    args(answerFile: string): string[];
    env?: Record<string, string>;
    answerEnv?: string;
    coverage?: boolean | 'debugger';
    limits: Pick<TestRunRequest, 'signal' | 'timeoutMs' | 'niceness'>;
  },
): Promise<AnswerFileRun<Answer>> {
  const run = makeRunDirectory();
  try {
    const answerFile = join(run.path, 'answer.json');
    const coverageDir = join(run.path, 'coverage');
    const env: Record<string, string> = { ...options.env };
    if (options.answerEnv) env[options.answerEnv] = answerFile;
    if (options.coverage) {
      Object.assign(env, { [COVERAGE_ENV.root]: root, [COVERAGE_ENV.out]: coverageDir });
      if (options.coverage === 'debugger') env[COVERAGE_ENV.sources] = 'debugger';
    }
    const outcome = await runTestProcess(options.command, options.args(answerFile), {
      cwd: root,
      env,
      ...processLimits(options.limits),
    });
    if (!existsSync(answerFile)) return { answer: undefined, outcome };
    const answer = JSON.parse(readFileSync(answerFile, 'utf8')) as Answer;
    return { answer, outcome, ...(options.coverage ? { coverage: readCoverageDirectory(coverageDir) } : {}) };
  } finally {
    run.dispose();
  }
}
