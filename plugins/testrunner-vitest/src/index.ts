import { testRunnerPlugin } from '@agentgov/core';
import { createVitestRunner } from './vitest-runner.js';

export const NAME = 'testrunner-vitest';

/** Registers the `vitest` test runner: per-test results and, on request, per-test V8 coverage. */
export default testRunnerPlugin({ name: NAME, create: createVitestRunner });

export { createVitestRunner, usesVitest, projectVitestVersion, VITEST_CONFIG_FILES } from './vitest-runner.js';
