export * from './test-process.js';
export { COVERAGE_ENV, testCaseId } from '../coverage/per-test-collector.js';
export * from './define-runner.js';
export * from './script-args.js';
