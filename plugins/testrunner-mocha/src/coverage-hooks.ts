// Root hooks mocha loads with `--require` when agentgov asks for per-test coverage: V8 precise
// coverage is taken before and after each test, so what ran in between belongs to that test.
import { collectorFromEnv, testCaseId } from '@agentgov/core/coverage-collector';

interface HookContext {
  currentTest?: { file?: string; titlePath(): string[]; parent?: { fullTitle(): string } };
}

/** The suite a test belongs to (its file and the titles above it), for grouped takes. */
const suiteOf = (test: HookContext['currentTest']) => (test ? `${test.file ?? ''}\0${test.parent?.fullTitle() ?? ''}` : undefined);

const collector = collectorFromEnv();

export const mochaHooks = collector
  ? {
      beforeEach(this: HookContext) {
        collector.beginTest(this.currentTest?.file, suiteOf(this.currentTest));
      },
      afterEach(this: HookContext) {
        const test = this.currentTest;
        if (test?.file) collector.endTest(testCaseId(collector.relativePath(test.file), test.titlePath()), suiteOf(test));
      },
      afterAll() {
        collector.flush();
      },
    }
  : {};
