import { hostname, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { Pool } from 'pg';
import type { BatchAck, GovernanceRecord, OutboxRecord, OutboxSink, RetryPolicy } from '@agentgov/core';
import { describeFailure, isDataError, poolConfig, type ConnectionOptions } from './connection.js';
import { openPostgresReader } from './postgres-reader.js';
import { assessments, events, machines, storeSchema } from './schema.js';

/** plugins/sink-postgres/migrations, from dist/src/*.js. */
export const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'migrations');
/** One lock id for "migrating the agentgov schema", so two processes starting at once do not race. */
const MIGRATION_LOCK = 0x61676f76; // 'agov'

export interface PostgresSinkOptions extends ConnectionOptions {
  name?: string;
  batch_size?: number;
  retry?: { initial_ms?: number; max_ms?: number };
  /** The machine the records come from (default: the OS user and host name). */
  machine?: { hostname?: string; user?: string };
}

type Store = NodePgDatabase<typeof storeSchema>;

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env['USER'] ?? process.env['USERNAME'] ?? 'unknown';
  }
}

// eslint-disable-next-line no-control-regex -- NUL is exactly what PostgreSQL refuses
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** PostgreSQL text refuses NUL, and jsonb refuses NUL and lone surrogates: replace them in every string. */
export function storable(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(UNSTORABLE, '\uFFFD');
  if (Array.isArray(value)) return value.map(storable);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, storable(v)]));
  return value;
}

function occurredAt(timestamp: string): Date | null {
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? null : new Date(ms);
}

/**
 * The PostgreSQL sink: an outbox sink, so the host enqueues every record in system.db and hands
 * it batches in order. A batch is one transaction of upserts keyed on the event id (and, for
 * assessments, the event id and kind), so a batch delivered twice (a crash before the outbox
 * heard back) stores nothing twice. The pool connects lazily and the schema's migrations run
 * before the first write: a database that is down at start-up is a failed delivery to retry,
 * never a failed start. Every error it raises names the URL with the password redacted.
 */
export function createPostgresSink(
  options: PostgresSinkOptions,
  baseDir: string,
): OutboxSink & { store(): Promise<Store>; close(): Promise<void> } {
  const host = options.machine?.hostname ?? hostname();
  const user = options.machine?.user ?? osUser();
  const machineId = `${user}@${host}`;
  let pool: Pool | undefined;
  let store: Store | undefined;
  let ready: Promise<Store> | undefined;

  const fail = (error: unknown): Error =>
    new Error(describeFailure(error, options.url), { cause: isDataError(error) ? error : undefined });

  const connect = async (): Promise<Store> => {
    if (!pool) {
      const pg = (await import('pg')).default;
      pool = new pg.Pool(poolConfig(options, baseDir));
      // A server that stops or drops connections makes each client emit 'error': for an idle one
      // on the pool, for a checked-out one (a transaction between statements) on the client.
      // Without listeners either would crash the process; the query in flight fails on its own and
      // the batch is retried.
      pool.on('error', () => undefined);
      pool.on('connect', (client) => client.on('error', () => undefined));
    }
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      try {
        await migrate(drizzle(client), {
          migrationsFolder: MIGRATIONS,
          migrationsSchema: 'agentgov',
          migrationsTable: '__drizzle_migrations',
        });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
      }
    } finally {
      client.release();
    }
    store = drizzle(pool, { schema: storeSchema });
    return store;
  };

  const ensure = (): Promise<Store> => {
    if (store) return Promise.resolve(store);
    // A failed start is forgotten, so the next delivery tries again.
    ready ??= connect().catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };

  /**
   * One statement per batch: the rows travel as two JSON parameters that PostgreSQL unpacks
   * (jsonb_to_recordset), and the machine, the events and the assessments are upserted by
   * data-modifying CTEs — one round trip, atomic, and little work on this process's event loop,
   * which ingestion shares. Foreign keys are checked at the end of the statement, after all three.
   */
  const upsert = async (db: Store, records: readonly OutboxRecord[]): Promise<void> => {
    // One row per key in a statement: ON CONFLICT DO UPDATE may not touch a row twice.
    const eventRows = new Map<string, Record<string, unknown>>();
    const assessmentRows = new Map<string, Record<string, unknown>>();
    for (const { event, assessment, kind, verdict, assessed_at } of records) {
      const existing = eventRows.get(event.id);
      if (!existing || (!existing['result'] && event.result)) {
        eventRows.set(event.id, {
          id: event.id,
          framework: event.framework,
          session_id: event.session_id,
          timestamp: event.timestamp,
          occurred_at: occurredAt(event.timestamp)?.toISOString() ?? null,
          cwd: event.cwd,
          tool_name: event.tool_name,
          canonical_tool: event.canonical_tool,
          arguments: event.arguments,
          result: event.result ?? null,
        });
      }
      assessmentRows.set(`${event.id}\u0000${kind}`, {
        event_id: event.id,
        kind,
        score: assessment.score,
        level: assessment.level,
        action: assessment.action,
        reason_code: assessment.reason_code,
        evidence: assessment.evidence,
        verdict: verdict?.decision ?? null,
        verdict_reason: verdict?.reason ?? null,
        decided_by: verdict?.decided_by ?? null,
        assessed_at: (occurredAt(assessed_at) ?? new Date()).toISOString(),
      });
    }
    const eventsJson = JSON.stringify(storable([...eventRows.values()]));
    const assessmentsJson = JSON.stringify(storable([...assessmentRows.values()]));
    await db.execute(sql`
      WITH machine AS (
        INSERT INTO ${machines} (id, hostname, os_user) VALUES (${machineId}, ${host}, ${user})
        ON CONFLICT (id) DO UPDATE SET last_seen = now()
        RETURNING 1
      ), stored_events AS (
        INSERT INTO ${events} (id, framework, session_id, "timestamp", occurred_at, cwd, tool_name, canonical_tool,
                               arguments, result, machine_id)
        SELECT x.id, x.framework, x.session_id, x."timestamp", x.occurred_at, x.cwd, x.tool_name, x.canonical_tool,
               x.arguments, x.result, ${machineId}
          FROM jsonb_to_recordset(${eventsJson}::jsonb) AS x(id text, framework text, session_id text, "timestamp" text,
               occurred_at timestamptz, cwd text, tool_name text, canonical_tool text, arguments jsonb, result jsonb)
        ON CONFLICT (id) DO UPDATE SET result = excluded.result
          WHERE ${events.result} IS NULL AND excluded.result IS NOT NULL
        RETURNING 1
      )
      INSERT INTO ${assessments} (event_id, kind, score, level, action, reason_code, evidence, verdict, verdict_reason,
                                  decided_by, assessed_at, machine_id)
      SELECT y.event_id, y.kind, y.score, y.level, y.action, y.reason_code, y.evidence, y.verdict, y.verdict_reason,
             y.decided_by, y.assessed_at, ${machineId}
        FROM jsonb_to_recordset(${assessmentsJson}::jsonb) AS y(event_id text, kind text, score integer, level text,
             action text, reason_code text, evidence jsonb, verdict text, verdict_reason text, decided_by text,
             assessed_at timestamptz)
      ON CONFLICT (event_id, kind) DO NOTHING`);
  };

  const retry: Partial<RetryPolicy> = {};
  if (options.retry?.initial_ms !== undefined) retry.initialMs = options.retry.initial_ms;
  if (options.retry?.max_ms !== undefined) retry.maxMs = options.retry.max_ms;

  const sink = {
    name: options.name ?? 'postgres',
    delivery: 'outbox' as const,
    batchSize: options.batch_size ?? 1000,
    retry,
    /** The drizzle handle, connected and migrated (tests and tools query through it). */
    store: ensure,
    async writeBatch(records: readonly OutboxRecord[]): Promise<BatchAck> {
      let db: Store;
      try {
        db = await ensure();
      } catch (error) {
        throw fail(error);
      }
      try {
        await upsert(db, records);
        return {};
      } catch (error) {
        if (!isDataError(error) || records.length === 1) {
          if (isDataError(error)) return { rejected: [{ index: 0, reason: describeFailure(error, options.url) }] };
          throw fail(error);
        }
      }
      // A record's content broke the batch: store the others one by one and refuse only the culprits.
      const rejected: { index: number; reason: string }[] = [];
      for (const [index, record] of records.entries()) {
        try {
          await upsert(db, [record]);
        } catch (error) {
          if (!isDataError(error)) throw fail(error);
          rejected.push({ index, reason: describeFailure(error, options.url) });
        }
      }
      return { rejected };
    },
    async write(record: GovernanceRecord): Promise<void> {
      const ack = await sink.writeBatch([{ ...record, kind: 'ingest', assessed_at: new Date().toISOString() }]);
      if (ack.rejected?.length) throw new Error(ack.rejected[0]!.reason);
    },
    openReader: () => openPostgresReader(options, baseDir),
    async close(): Promise<void> {
      const closing = pool;
      pool = undefined;
      store = undefined;
      ready = undefined;
      await closing?.end().catch(() => undefined);
    },
  };
  return sink;
}
