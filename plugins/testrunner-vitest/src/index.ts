import { definePlugin } from '@agentgov/core';
import { createVitestRunner } from './vitest-runner.js';

export const NAME = 'testrunner-vitest';

/** Registers the `vitest` test runner: per-test results and, on request, per-test V8 coverage. */
export default definePlugin<Record<string, never>>({
  name: NAME,
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(hooks) {
    hooks.testRunners.tap(NAME, (registry) => registry.add(createVitestRunner()));
  },
});

export { createVitestRunner, usesVitest, projectVitestVersion, VITEST_CONFIG_FILES } from './vitest-runner.js';
