import { testRunnerPlugin } from '@agentgov/core';
import { createNodeTestRunner } from './node-test-runner.js';

export const NAME = 'testrunner-node';

/** Registers the `node` test runner (node:test): per-test results and, on request, per-test V8 coverage. */
export default testRunnerPlugin({ name: NAME, create: createNodeTestRunner });

export { createNodeTestRunner } from './node-test-runner.js';
export { readNodeTestSetup, testFiles, usesNodeTest, nodeTestArgsOfScript } from './node-test-config.js';
