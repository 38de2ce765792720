export * from './settings-file.js';
