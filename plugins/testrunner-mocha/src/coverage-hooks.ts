// Root hooks mocha loads with `--require` when agentgov asks for per-test coverage: V8 precise
// coverage is taken before and after each test, so what ran in between belongs to that test.
import { collectorFromEnv, testCaseId } from '@agentgov/core/coverage-collector';

interface HookContext {
  currentTest?: { file?: string; titlePath(): string[] };
}

const collector = collectorFromEnv();

export const mochaHooks = collector
  ? {
      beforeEach(this: HookContext) {
        collector.beginTest(this.currentTest?.file);
      },
      afterEach(this: HookContext) {
        const test = this.currentTest;
        if (test?.file) collector.endTest(testCaseId(collector.relativePath(test.file), test.titlePath()));
      },
      afterAll() {
        collector.flush();
      },
    }
  : {};
