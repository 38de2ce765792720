/**
 * The test-runner contract: how `checkpoint` and the test scheduler discover, run and read a
 * project's tests. One provider per runner (mocha, vitest, node:test, pytest, ...), registered
 * through the `testRunners` hook. Paths are repository-relative with `/` separators.
 */

export type TestStatus = 'passed' | 'failed' | 'skipped';

/** One test case as the runner reported it. */
export interface TestCaseResult {
  /**
   * Stable id: the same test has the same id on every run and machine. JS runners use
   * `<file> > <title> > ... > <title>`; pytest uses its node id (`tests/test_x.py::TestA::test_b[p]`).
   */
  id: string;
  /** The test file that defines the case. */
  file: string;
  /** Suite titles outermost first, then the test's own title. */
  titlePath: string[];
  status: TestStatus;
  durationMs: number;
  /** Set when `status` is `failed`. */
  failure?: { message: string; stack?: string };
}

/** A case as a JS runner's reporter or driver gives it, before agentgov names it (`testCaseId`; see `runReport`). */
export type ReportedTestCase = Omit<TestCaseResult, 'id'>;

/** A test file's outcome; `error` means it failed to load or the process died before its tests ran. */
export interface TestFileResult {
  file: string;
  status: 'passed' | 'failed' | 'error';
  durationMs: number;
  /** Load errors, crash output; empty when the file ran normally. */
  output: string;
}

/** Lines (1-based) of one source file covered while a test, or a test file's loading, ran. */
export interface CoveredLines {
  file: string;
  lines: number[];
}

/**
 * What one test covered. `scope: 'test'`: `id` is a test case id and the lines ran inside that
 * test. `scope: 'file'`: `id` is a test file and the lines ran while it loaded or outside any one
 * test (module bodies, imports, decorators, suite-level hooks); they count as covered by every test
 * in that file. A runner without per-test hooks reports everything with `scope: 'file'`.
 */
export interface TestCoverage {
  scope: 'test' | 'file';
  id: string;
  files: CoveredLines[];
}

export interface TestRunRequest {
  /** Test files to run; empty runs every file `discover` returns. */
  files: string[];
  /**
   * Only tests whose full title (or pytest node id) matches; passed to the runner's own filter (`--grep`, `-t`, `-k`,
   * `--test-name-pattern`).
   */
  nameFilter?: string;
  /** Collect per-test coverage (`TestRunReport.coverage`). */
  coverage?: boolean;
  /** Stops the run: the child process is killed and the promise rejects with an `AbortError`. */
  signal?: AbortSignal;
  /** Kill the run after this long; the report then has `timedOut: true`. */
  timeoutMs?: number;
  /** Process niceness for the child (0 = normal, 19 = lowest); ignored where unsupported. */
  niceness?: number;
  /** Extra environment for the child process. */
  env?: Record<string, string>;
}

export interface TestRunReport {
  runner: string;
  /** Every test case that ran or was skipped. */
  tests: TestCaseResult[];
  files: TestFileResult[];
  /** Present when coverage was requested. */
  coverage?: TestCoverage[];
  /**
   * How finely coverage is attributed: `test` (per test case) or `file` (per test file, where the runner offers no
   * per-test hook).
   */
  coverageGranularity?: 'test' | 'file';
  /** The child's exit code; null when it was killed. */
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** The tail of the child's stdout/stderr, for a human. */
  output: string;
}

export interface TestRunner {
  /** The runner's name (`mocha`, `vitest`, `node`, `pytest`); errors and answers name it. */
  name: string;
  /** Whether the project at `root` uses this runner: its config file, a package.json script or dependency. */
  detect(root: string): Promise<boolean>;
  /**
   * The test files the project's own config selects (`.mocharc.*` spec, `vitest.config.*` include,
   * `pytest.ini`/`pyproject.toml`/`setup.cfg` testpaths, package.json scripts), sorted.
   * Throws `AgentgovError('E_TEST_CONFIG_INVALID')` when that config cannot be read.
   */
  discover(root: string): Promise<string[]>;
  /** Whether `file` is a test file this runner would run (cheap; no process is started). */
  isTestFile(root: string, file: string): boolean;
  /**
   * Runs `request.files`. Test failures are results, not errors. Throws
   * `AgentgovError('E_TEST_RUNNER_MISSING')` when the runner is not installed in the project and
   * `E_TEST_CONFIG_INVALID` when the runner rejects the project's config; both name the runner.
   */
  run(root: string, request: TestRunRequest): Promise<TestRunReport>;
  /**
   * The shell command (run from `root`) that runs `files` filtered by `nameFilter`, for an agent or a human to paste.
   */
  command(files: string[], nameFilter?: string): string;
  /**
   * The shell command that runs exactly one test case (its title escaped for the runner's filter); default:
   * `command([test.file])`.
   */
  testCommand?(test: Pick<TestCaseResult, 'id' | 'file' | 'titlePath'>): string;
}
