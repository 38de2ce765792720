export * from './json-lines.js';
export * from './capture-files.js';
export * from './claude-transcript.js';
export * from './capture-adapter.js';
