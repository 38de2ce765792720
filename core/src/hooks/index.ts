export * from './attribution.js';
export * from './hooks.js';
export * from './lifecycle.js';
export * from './registry.js';
