export * from './blast-radius.js';
export * from './changed-definitions.js';
export * from './coverage-store.js';
