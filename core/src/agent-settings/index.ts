export * from './settings-file.js';
export * from './command-hooks.js';
