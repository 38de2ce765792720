import { definePlugin } from '@agentgov/core';
import { createNodeTestRunner } from './node-test-runner.js';

export const NAME = 'testrunner-node';

/** Registers the `node` test runner (node:test): per-test results and, on request, per-test V8 coverage. */
export default definePlugin<Record<string, never>>({
  name: NAME,
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(hooks) {
    hooks.testRunners.tap(NAME, (registry) => registry.add(createNodeTestRunner()));
  },
});

export { createNodeTestRunner } from './node-test-runner.js';
export { readNodeTestSetup, testFiles, usesNodeTest, nodeTestArgsOfScript } from './node-test-config.js';
