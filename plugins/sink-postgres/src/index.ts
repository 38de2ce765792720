import { definePlugin } from '@agentgov/core';
import { createPostgresSink, type PostgresSinkOptions } from './postgres-sink.js';

export const NAME = 'sink-postgres';

const ms = (description: string, minimum = 0) => ({ type: 'integer', minimum, description });

/**
 * Registers the `postgres` sink when a `url` is configured (bundled, but off until then): every
 * recorded event and assessment goes to PostgreSQL through the durable outbox in system.db.
 */
export default definePlugin<Partial<PostgresSinkOptions>>({
  name: NAME,
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      url: {
        type: 'string',
        minLength: 1,
        description:
          'postgres://user:password@host:5432/db; ${NAME} expands from the environment (put the password there)',
      },
      name: { type: 'string', minLength: 1, default: 'postgres', description: 'Sink name (status, logs)' },
      batch_size: {
        type: 'integer',
        minimum: 1,
        maximum: 10000,
        default: 1000,
        description: 'Records per statement (one round trip, one transaction)',
      },
      statement_timeout_ms: ms('Server-side limit per statement; a slower batch fails and is retried', 1),
      application_name: { type: 'string', description: 'application_name of the connections (default agentgov)' },
      tls: {
        type: 'object',
        additionalProperties: false,
        properties: {
          mode: {
            enum: ['disable', 'require', 'verify-full'],
            description:
              'disable; require (encrypted, certificate unchecked); verify-full (certificate and host checked)',
          },
          ca: { type: 'string', description: 'CA certificate (PEM) file' },
          cert: { type: 'string', description: 'Client certificate (PEM) file' },
          key: { type: 'string', description: 'Client key (PEM) file' },
          servername: { type: 'string', description: 'Host name the server certificate must name' },
        },
      },
      pool: {
        type: 'object',
        additionalProperties: false,
        properties: {
          max: { type: 'integer', minimum: 1, maximum: 100, description: 'Most connections (default 4)' },
          idle_timeout_ms: ms('Close a connection idle this long (default 30000)'),
          connect_timeout_ms: ms('Give up connecting after this long (default 10000)', 1),
        },
      },
      retry: {
        type: 'object',
        additionalProperties: false,
        properties: {
          initial_ms: ms('First retry delay (default 1000)', 1),
          max_ms: ms('Longest retry delay (default 30000)', 1),
        },
      },
      machine: {
        type: 'object',
        additionalProperties: false,
        properties: { hostname: { type: 'string', minLength: 1 }, user: { type: 'string', minLength: 1 } },
        description: 'Machine the records come from (default: this host name and OS user)',
      },
    },
  },
  apply(hooks, context) {
    const { url } = context.options;
    if (!url) return;
    hooks.sinks.tap(NAME, (registry) => registry.add(createPostgresSink({ ...context.options, url }, context.baseDir)));
  },
});

export { createPostgresSink, storable, MIGRATIONS, type PostgresSinkOptions } from './postgres-sink.js';
export { describeFailure, redactUrl, type ConnectionOptions, type PoolOptions, type TlsOptions } from './connection.js';
export * as storeTables from './schema.js';
