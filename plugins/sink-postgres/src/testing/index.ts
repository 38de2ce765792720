export * from './postgres-cluster.js';
