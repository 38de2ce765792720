// A setup file the vitest runner adds to the project's `setupFiles` when agentgov asks for per-test
// coverage. It runs in each vitest worker before each test file: V8 precise coverage is taken around
// every test, so what ran in between belongs to that test. Vitest transforms modules before running
// them, so the collector reads each script's source from V8 (`AGENTGOV_COVERAGE_SOURCES=debugger`)
// and maps it back to the .ts lines through the inline source map vitest attaches.
import { collectorFromEnv, testCaseId, type TestCoverageCollector } from '@agentgov/core/coverage-collector';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

interface TaskLike {
  name: string;
  type?: string;
  filepath?: string;
  suite?: TaskLike;
  file?: TaskLike;
}

const KEY = Symbol.for('agentgov.vitest.collector');
const scope = globalThis as unknown as Record<symbol, TestCoverageCollector | undefined>;
// With vitest's module isolation this file is evaluated once per test file: keep one collector (one
// inspector session, one flush counter) per worker process.
const collector = (scope[KEY] ??= collectorFromEnv());

/** The test's suite titles, outermost first, then its own title; the file task is not a title. */
function titlePath(task: TaskLike): string[] {
  const titles = [task.name];
  for (let suite = task.suite; suite && suite.type !== undefined && suite.filepath === undefined; suite = suite.suite)
    titles.unshift(suite.name);
  return titles;
}

if (collector) {
  let file: string | undefined;
  // The file's path from expect's state: hook arguments differ between vitest versions (4 passes a fixture context
  // first).
  beforeAll(() => {
    file = expect.getState().testPath;
    // Loading the test file and what it imports, and the describe bodies, ran before this hook.
    collector.flush(file);
  });
  beforeEach(() => collector.beginTest(file));
  afterEach(({ task }: { task: TaskLike }) => {
    const path = task.file?.filepath ?? file;
    if (path) collector.endTest(testCaseId(collector.relativePath(path), titlePath(task)));
  });
  afterAll(() => collector.flush(file));
}
