export * from './loader.js';
export * from './plugin.js';
export * from './resolve.js';
