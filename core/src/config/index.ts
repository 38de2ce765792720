export * from './defaults.js';
export * from './document.js';
export * from './load.js';
export * from './merge.js';
export * from './schema.js';
export * from './types.js';
export * from './validate.js';
export * from './interpolate.js';
