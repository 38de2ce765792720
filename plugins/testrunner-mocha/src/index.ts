import { testRunnerPlugin } from '@agentgov/core';
import { createMochaRunner } from './mocha-runner.js';

export const NAME = 'testrunner-mocha';

/** Registers the `mocha` test runner: per-test results and, on request, per-test V8 coverage. */
export default testRunnerPlugin({ name: NAME, create: createMochaRunner });

export { createMochaRunner, specFiles } from './mocha-runner.js';
export { readMochaSetup, usesMocha, mochaArgsOfScript } from './mocha-config.js';
