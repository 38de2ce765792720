'use strict';
/* global require, module */
/* eslint-disable @typescript-eslint/no-require-imports */
// A mocha reporter writing every test case (title path, file, status, duration, failure) as JSON to
// $AGENTGOV_MOCHA_RESULTS when the run ends. CommonJS so every mocha version can `require` it.
const { writeFileSync } = require('node:fs');

function failureOf(error) {
  if (!error) return undefined;
  return { message: String(error.message ?? error), stack: typeof error.stack === 'string' ? error.stack : undefined };
}

function CaseReporter(runner) {
  const out = process.env.AGENTGOV_MOCHA_RESULTS;
  const tests = [];
  const push = (test, status, error) => {
    tests.push({
      titlePath: test.titlePath(),
      file: test.file ?? test.parent?.file ?? '',
      status,
      durationMs: test.duration ?? 0,
      failure: failureOf(error),
    });
  };
  runner.on('pass', (test) => push(test, 'passed'));
  runner.on('pending', (test) => push(test, 'skipped'));
  // A failing hook is reported as a failed case under the hook's own title path, so it is never lost.
  runner.on('fail', (test, error) => push(test, 'failed', error));
  runner.once('end', () => {
    if (out) writeFileSync(out, JSON.stringify({ tests }));
  });
}

module.exports = CaseReporter;
