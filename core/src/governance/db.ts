import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { AgentgovError } from '../errors/agentgov-error.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../paths/home.js';
import { GateEndpointStore, type GateEndpoint } from './endpoints.js';
import { OffsetStore } from './offsets.js';
import { OutboxStore } from './outbox.js';
import { RecordStore, type GateDecision } from './records.js';
import { governanceSchema, type GovernanceOrm } from './schema.js';
import { readStatus, type GovernanceStatus } from './status.js';

export type { GovernanceOrm };

/** core/migrations/governance, from dist/src/governance/*.js. */
const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'migrations', 'governance');

export interface OpenGovernanceDbOptions {
  /** Open an existing database for reading only: nothing is created or migrated (`status`). */
  readonly?: boolean;
}

/**
 * The governance database (system.db): sessions, events, assessments, ingest offsets and gate
 * endpoints. WAL mode, so `status` and the gate read while `watch` writes; the file is private
 * (0600, in a 0700 directory).
 */
export class GovernanceDb {
  readonly records: RecordStore;
  readonly offsets: OffsetStore;
  readonly endpoints: GateEndpointStore;
  readonly outbox: OutboxStore;

  private constructor(
    readonly path: string,
    readonly sqlite: Database.Database,
    readonly orm: GovernanceOrm,
  ) {
    this.outbox = new OutboxStore(sqlite);
    this.records = new RecordStore(orm, this.outbox);
    this.offsets = new OffsetStore(orm);
    this.endpoints = new GateEndpointStore(orm);
  }

  static open(path: string, options: OpenGovernanceDbOptions = {}): GovernanceDb {
    if (options.readonly) return GovernanceDb.openReadonly(path);
    mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
    // Create the file ourselves so it is 0600 from its first byte; SQLite gives -wal/-shm the same mode.
    if (!existsSync(path)) closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
    chmodSync(path, PRIVATE_FILE_MODE);
    let sqlite: Database.Database;
    try {
      sqlite = new Database(path);
      sqlite.pragma('journal_mode = WAL');
      sqlite.pragma('busy_timeout = 5000');
      sqlite.pragma('foreign_keys = ON');
      sqlite.pragma('synchronous = NORMAL');
    } catch (error) {
      throw unavailable(path, error);
    }
    const orm = drizzle(sqlite, { schema: governanceSchema });
    try {
      migrate(orm, { migrationsFolder: MIGRATIONS });
    } catch (error) {
      sqlite.close();
      throw unavailable(path, error);
    }
    return new GovernanceDb(path, sqlite, orm);
  }

  private static openReadonly(path: string): GovernanceDb {
    if (!existsSync(path)) {
      throw new AgentgovError('E_DB_MISSING', `no governance database at ${path}`, { path });
    }
    let sqlite: Database.Database;
    try {
      sqlite = new Database(path, { readonly: true, fileMustExist: true });
      sqlite.pragma('busy_timeout = 5000');
      const tables = sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'events'`).all();
      if (tables.length === 0) throw new Error('it has no governance tables (not a system.db?)');
    } catch (error) {
      throw unavailable(path, error);
    }
    return new GovernanceDb(path, sqlite, drizzle(sqlite, { schema: governanceSchema }));
  }

  /** Runs `fn` in one SQLite transaction: everything it writes commits together or not at all. */
  transaction<T>(fn: () => T): T {
    return this.sqlite.transaction(fn)();
  }

  registerGateEndpoint(endpoint: { socket: string; token: string; pid: number }): GateEndpoint {
    return this.endpoints.register(endpoint);
  }

  unregisterGateEndpoint(endpoint: { socket: string }): void {
    this.endpoints.unregister(endpoint);
  }

  currentGateEndpoint(): GateEndpoint | undefined {
    return this.endpoints.current();
  }

  /** Records a live gate decision (the event once, plus an assessment with the verdict). */
  recordGateDecision(decision: GateDecision): void {
    this.records.recordGateDecision(decision);
  }

  status(options: { recentLimit?: number } = {}): GovernanceStatus {
    return readStatus(this.orm, this.sqlite, this.path, options.recentLimit ?? 10);
  }

  close(): void {
    if (this.sqlite.open) this.sqlite.close();
  }
}

function unavailable(path: string, error: unknown): AgentgovError {
  if (error instanceof AgentgovError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new AgentgovError(
    'E_DB_UNAVAILABLE',
    `governance database ${path} cannot be used: ${message}`,
    { path },
    { cause: error },
  );
}
