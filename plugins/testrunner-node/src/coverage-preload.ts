// Loaded with `--import` into the node:test driver, and so into every test process node's `run()`
// starts (they inherit its node options). In a test process (NODE_TEST_CONTEXT is set there) it
// takes V8 precise coverage through the inspector around each test with root-level hooks, which
// node:test runs for every test of the file, nested ones included.
import { collectorFromEnv, testCaseId } from '@agentgov/core/coverage-collector';
import { after, afterEach, beforeEach } from 'node:test';

const collector = process.env['NODE_TEST_CONTEXT'] ? collectorFromEnv() : undefined;

if (collector) {
  // node:test runs each test file in its own process, started with the file as its script.
  const file = process.argv[1];
  let loaded = false;
  beforeEach(() => {
    if (!loaded) {
      // Loading the file, its imports and its describe bodies ran before the first test.
      collector.flush(file);
      loaded = true;
    }
    collector.beginTest(file);
  });
  afterEach((context) => {
    if (file)
      collector.endTest(
        testCaseId(
          collector.relativePath(file),
          (context as { fullName?: string }).fullName?.split(' > ') ?? [context.name],
        ),
      );
  });
  after(() => collector.flush(file));
}
