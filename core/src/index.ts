export * from './config/index.js';
export * from './contracts/index.js';
export * from './errors/index.js';
export * from './hooks/index.js';
export * from './logging/logger.js';
export * from './paths/home.js';
export * from './plugins/index.js';
export * from './text/identifier-words.js';
