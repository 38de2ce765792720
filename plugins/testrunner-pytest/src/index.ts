import { testRunnerPlugin } from '@agentgov/core';
import { createPytestRunner, type PytestRunnerOptions } from './pytest-runner.js';

export const NAME = 'testrunner-pytest';

/**
 * Registers the `pytest` test runner: per-test results and, on request, coverage.py coverage per test (one dynamic
 * context each).
 */
export default testRunnerPlugin<PytestRunnerOptions>({
  name: NAME,
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      python: {
        type: 'string',
        minLength: 1,
        description: 'Python interpreter; default $AGENTGOV_PYTHON, the project .venv/venv, or python3',
      },
    },
  },
  create: createPytestRunner,
});

export { casesOf, coverageOf, createPytestRunner, pythonOf, type PytestRunnerOptions } from './pytest-runner.js';
export { pytestFiles, readPytestSetup, usesPytest } from './pytest-config.js';
