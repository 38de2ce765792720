// Root hooks mocha loads with `--require` when agentgov asks for per-test coverage: what ran
// between one test's end and the next one's belongs to that test. In a CommonJS package the
// project's files are instrumented (instrumented-coverage.ts: a take per test costs microseconds);
// otherwise, or with AGENTGOV_COVERAGE_ENGINE=v8, V8 precise coverage is taken around each test.
import { COVERAGE_ENV, collectorFromEnv, testCaseId } from '@agentgov/core/coverage-collector';
import { InstrumentedCollector, isCommonJsPackage } from './instrumented-coverage.js';

interface HookContext {
  currentTest?: { file?: string; titlePath(): string[]; parent?: { fullTitle(): string } };
}

/** The suite a test belongs to (its file and the titles above it), for grouped takes. */
const suiteOf = (test: HookContext['currentTest']) =>
  test ? `${test.file ?? ''}\0${test.parent?.fullTitle() ?? ''}` : undefined;

const engine = process.env[COVERAGE_ENV.engine];
const collector = collectorFromEnv(process.env, (root, out) =>
  engine === 'instrument' || (engine !== 'v8' && isCommonJsPackage(root))
    ? new InstrumentedCollector(root, out, process.env[COVERAGE_ENV.group])
    : undefined,
);

export const mochaHooks = collector
  ? {
      beforeEach(this: HookContext) {
        collector.beginTest(this.currentTest?.file, suiteOf(this.currentTest));
      },
      afterEach(this: HookContext) {
        const test = this.currentTest;
        if (test?.file)
          collector.endTest(testCaseId(collector.relativePath(test.file), test.titlePath()), suiteOf(test));
      },
      afterAll() {
        collector.flush();
      },
    }
  : {};
