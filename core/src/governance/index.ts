export * from './db.js';
export * from './endpoints.js';
export * from './offsets.js';
export * from './path.js';
export * from './records.js';
export * from './schema.js';
export * from './status.js';
