export * from './agentgov-error.js';
export * from './catalog.js';
export * from './markdown.js';
