export * from './events.js';
export * from './framework.js';
export * from './language.js';
export * from './linter.js';
export * from './retriever.js';
export * from './risk-rule.js';
export * from './sink.js';
export * from './test-runner.js';
