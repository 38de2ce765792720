import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '@agentgov/core';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type { FileFacts, ParseErrors } from '../extract-file.js';
import type { SearchDocuments } from '../search-terms.js';
import type { Definition, DefinitionChange, ImportEdge, Reference } from '../types.js';
import { MIGRATIONS, REF_PATH_SPAN, SCHEMA_VERSION } from './migrations.js';
import { indexSchema } from './schema.js';

/**
 * Bumped whenever extraction changes what it produces for the same source: stored facts from an
 * older extractor are dropped and rebuilt rather than mixed with new ones.
 */
export const EXTRACTOR_VERSION = '7';

export type IndexDatabase = BetterSQLite3Database<typeof indexSchema> & { $client: Database.Database };

export interface StoredFile {
  path: string;
  language: string;
  size: number;
  mtimeMs: number;
  hash: string;
  lines: number;
}

export interface ModuleExports {
  localExports: Array<{ exported: string; local: string }>;
  defaultExports: string[];
}

/** What one re-index writes for one file whose content changed. */
/** A file whose syntax tree holds errors: how many, and where the first one is. */
export interface FileParseErrors extends ParseErrors {
  path: string;
}

export interface FileWrite {
  file: StoredFile;
  facts: Omit<FileFacts, 'references' | 'bodyIdentifiers'>;
  search: SearchDocuments;
}

/** References per multi-row INSERT: one call into SQLite for many rows is much cheaper than one per row. */
const REF_BATCH = 64;
const REF_COLUMNS = 10;
/**
 * SQLite's page cache per connection, in KiB. The OS keeps the file's pages cached anyway; 64 MiB bought no CPU on
 * sympy's cold build (30.6-31.6 s at 8-16 MiB against 32.5 s) and held ~60 MB of resident memory for the session.
 */
const PAGE_CACHE_KIB = 16 * 1024;
/** SQLite's default automatic checkpoint threshold. */
const WAL_AUTOCHECKPOINT_PAGES = 1000;

const UID = /^[0-9a-f]{16}$/;
/** Printable ASCII (and tab, CR, LF) only: there SQLite's length() (characters) equals JavaScript's (UTF-16 units). */
const NON_ASCII = /[^\t\n\r\u0020-\u007e]/u;
const TOP_BIT = 1n << 63n;

/** Whether `uid` is a stored definition's uid (16 hex digits); the recon view's own entries (`module:…`) are not. */
export function isStoredUid(uid: string): boolean {
  return UID.test(uid);
}

/**
 * A def uid (16 hex digits) as `ref_rows` stores it: its 64-bit value with the top bit flipped, as a signed integer,
 * so integer order is text order (`uidHexSql` reads it back). Anything else is refused rather than stored wrongly.
 */
export function storedUid(uid: string): bigint {
  if (!isStoredUid(uid))
    throw new Error(`index store: a reference names definition uid ${JSON.stringify(uid)}, not 16 hex digits`);
  return BigInt.asIntN(64, BigInt(`0x${uid}`) ^ TOP_BIT);
}

function openDatabase(file: string): Database.Database {
  const sqlite = new Database(file);
  try {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    sqlite.pragma('temp_store = MEMORY');
    // Reading the schema and the meta table proves the file is a database we can use; a full
    // quick_check would read every page (seconds on a large index) on every open.
    sqlite.prepare(`SELECT count(*) FROM sqlite_master`).get();
    return sqlite;
  } catch (error) {
    sqlite.close();
    throw error;
  }
}

function removeDatabase(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}

/** Brings an opened database to SCHEMA_VERSION; false when its schema is foreign or newer (rebuild it). */
function migrate(sqlite: Database.Database): boolean {
  if (sqlite.pragma('user_version', { simple: true }) === SCHEMA_VERSION)
    sqlite.prepare(`SELECT value FROM meta LIMIT 1`).get();
  const version = sqlite.pragma('user_version', { simple: true }) as number;
  const tables = sqlite.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'`).get() as { n: number };
  if (version > SCHEMA_VERSION || (version === 0 && tables.n > 0)) return false;
  sqlite.transaction(() => {
    for (let step = version; step < SCHEMA_VERSION; step++)
      for (const statement of MIGRATIONS[step]!) sqlite.exec(statement);
    sqlite.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
  return true;
}

/** The SQLite store behind a repository index: one writer (the index), many readers. */
export class IndexStore {
  readonly sqlite: Database.Database;
  readonly db: IndexDatabase;
  readonly #statements: ReturnType<IndexStore['prepare']>;
  /** path → `paths.id`; rows of `paths` are never deleted, so an id once read stays valid. */
  readonly #pathIds = new Map<string, number>();
  /** name → `ref_names.id`, as `#pathIds`. */
  readonly #nameIds = new Map<string, number>();
  /** def uid → `def_uids.id`, as `#pathIds`. */
  readonly #uidIds = new Map<string, number>();
  #bulk = false;

  private constructor(sqlite: Database.Database) {
    this.sqlite = sqlite;
    this.db = drizzle(sqlite, { schema: indexSchema }) as IndexDatabase;
    this.#statements = this.prepare();
  }

  /** Opens (or creates) the store; a corrupt, foreign or outdated one is deleted and rebuilt with a log line. */
  static open(file: string, logger: Logger): IndexStore {
    mkdirSync(dirname(file), { recursive: true });
    let sqlite: Database.Database | null = null;
    try {
      if (existsSync(file)) {
        sqlite = openDatabase(file);
        if (!migrate(sqlite)) {
          logger.warn("index schema is not this version's; rebuilding the index", { file });
          sqlite.close();
          sqlite = null;
        } else if (IndexStore.#extractorVersion(sqlite) !== EXTRACTOR_VERSION) {
          logger.info('index was built by another extractor version; rebuilding the index', { file });
          sqlite.close();
          sqlite = null;
        }
      }
    } catch (error) {
      logger.warn('index database is unreadable or corrupt; rebuilding the index', {
        file,
        error: (error as Error).message,
      });
      try {
        sqlite?.close();
      } catch {
        // already unusable; it is deleted next
      }
      sqlite = null;
    }
    if (sqlite) {
      // The version says this schema; preparing every statement proves its tables are (a database written under
      // the same number by another build may not have them).
      try {
        return new IndexStore(sqlite);
      } catch (error) {
        logger.warn("index tables are not this version's; rebuilding the index", {
          file,
          error: (error as Error).message,
        });
        sqlite.close();
      }
    }
    removeDatabase(file);
    sqlite = openDatabase(file);
    migrate(sqlite);
    sqlite
      .prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('extractor_version', ?), ('epoch', '0')`)
      .run(EXTRACTOR_VERSION);
    return new IndexStore(sqlite);
  }

  static #extractorVersion(sqlite: Database.Database): string | undefined {
    const row = sqlite.prepare(`SELECT value FROM meta WHERE key = 'extractor_version'`).get() as
      { value: string } | undefined;
    return row?.value;
  }

  private prepare() {
    const s = this.sqlite;
    return {
      epoch: s.prepare(`SELECT value FROM meta WHERE key = 'epoch'`),
      setEpoch: s.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('epoch', ?)`),
      insertFile: s.prepare(
        `INSERT OR REPLACE INTO files (path, language, size, mtime_ms, hash, lines, ` +
          `exports, epoch) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      touchFile: s.prepare(`UPDATE files SET mtime_ms = ? WHERE path = ?`),
      defsOfPath: s.prepare(
        `SELECT def_uid, kind, qualified_name, body_hash FROM def_rows ` +
          `WHERE path_id = (SELECT id FROM paths WHERE path = ?)`,
      ),
      insertDef: s.prepare(
        `INSERT OR REPLACE INTO def_rows (def_uid, path_id, kind, name, qualified_name, ` +
          `start_line, start_col, end_line, end_col, name_line, name_col, signature, ` +
          `docstring, body_hash, exported)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      // FTS rows share the rowid of their definitions/files row, so deleting by path uses the path index.
      insertDefDoc: s.prepare(
        `INSERT INTO fts_definitions (rowid, name_terms, qualified_name, signature, ` +
          `docstring, body, path_terms) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertFileDoc: s.prepare(`INSERT INTO fts_files (rowid, path_terms, identifiers) VALUES (?, ?, ?)`),
      insertPath: s.prepare(`INSERT OR IGNORE INTO paths (path) VALUES (?)`),
      pathId: s.prepare(`SELECT id FROM paths WHERE path = ?`).pluck(),
      insertName: s.prepare(`INSERT OR IGNORE INTO ref_names (name) VALUES (?)`),
      nameId: s.prepare(`SELECT id FROM ref_names WHERE name = ?`).pluck(),
      insertUid: s.prepare(`INSERT OR IGNORE INTO def_uids (uid) VALUES (?)`),
      uidId: s.prepare(`SELECT id FROM def_uids WHERE uid = ?`).pluck(),
      insertTargetPath: s.prepare(`INSERT OR IGNORE INTO ref_target_paths (to_id, path_id) VALUES (?, ?)`),
      deleteTargetPaths: s.prepare(
        `DELETE FROM ref_target_paths WHERE path_id = ? AND to_id IN (SELECT DISTINCT to_id FROM ref_rows ` +
          `WHERE id >= ? AND id < ? AND to_id IS NOT NULL)`,
      ),
      insertNamePath: s.prepare(`INSERT OR IGNORE INTO ref_name_paths (name_id, path_id) VALUES (?, ?)`),
      insertRef: s.prepare(
        `INSERT INTO ref_rows (id, name_id, context_id, start_line, start_col, end_line, ` +
          `end_col, qualifier_id, from_id, to_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertRefBatch: s.prepare(
        `INSERT INTO ref_rows (id, name_id, context_id, start_line, start_col, end_line, ` +
          `end_col, qualifier_id, from_id, to_id) VALUES ` +
          `${Array.from({ length: REF_BATCH }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      ),
      insertImport: s.prepare(
        `INSERT INTO import_rows (from_id, specifier, kind, to_id, bindings, star, line) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertHistory: s.prepare(
        `INSERT INTO def_history_rows (epoch, def_uid, path_id, kind, qualified_name, change, ` +
          `old_body_hash, new_body_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      deleteFile: s.prepare(`DELETE FROM files WHERE path = ?`),
      deleteDefs: s.prepare(`DELETE FROM def_rows WHERE path_id = (SELECT id FROM paths WHERE path = ?)`),
      deleteDefDocs: s.prepare(
        `DELETE FROM fts_definitions WHERE rowid IN ` +
          `(SELECT rowid FROM def_rows WHERE path_id = (SELECT id FROM paths WHERE path = ?))`,
      ),
      deleteFileDoc: s.prepare(`DELETE FROM fts_files WHERE rowid IN (SELECT rowid FROM files WHERE path = ?)`),
      // A file's references are the rowid range [path id * REF_PATH_SPAN, (path id + 1) * REF_PATH_SPAN).
      deleteNamePaths: s.prepare(
        `DELETE FROM ref_name_paths WHERE path_id = ? AND name_id IN (SELECT DISTINCT name_id FROM ref_rows ` +
          `WHERE id >= ? AND id < ?)`,
      ),
      deleteRefs: s.prepare(`DELETE FROM ref_rows WHERE id >= ? AND id < ?`),
      deleteImports: s.prepare(`DELETE FROM import_rows WHERE from_id = (SELECT id FROM paths WHERE path = ?)`),
      insertParseErrors: s.prepare(
        `INSERT OR REPLACE INTO parse_errors (path, errors, missing, first_line, first_col) VALUES (?, ?, ?, ?, ?)`,
      ),
      deleteParseErrors: s.prepare(`DELETE FROM parse_errors WHERE path = ?`),
    };
  }

  epoch(): number {
    const row = this.#statements.epoch.get() as { value: string } | undefined;
    return row ? Number(row.value) : 0;
  }

  storedFiles(): Map<string, StoredFile> {
    const rows = this.sqlite
      .prepare(`SELECT path, language, size, mtime_ms AS mtimeMs, hash, lines FROM files`)
      .all() as StoredFile[];
    return new Map(rows.map((row) => [row.path, row]));
  }

  /** `bulk`: an empty store about to be filled (nothing to delete first; checkpointed after the commit). */
  begin(bulk = false): void {
    this.sqlite.exec('BEGIN IMMEDIATE');
    this.#bulk = bulk;
  }

  commit(): void {
    const bulk = this.#bulk;
    this.#bulk = false;
    if (!bulk) {
      this.sqlite.exec('COMMIT');
      return;
    }
    // The ids are in the store: a later change looks up the few it needs rather than holding every name and uid.
    this.#nameIds.clear();
    this.#uidIds.clear();
    // A bulk load commits the whole database into the WAL; copying it back into the database file
    // (the automatic checkpoint, ~70 ms for vuejs/core) waits for the next turn of the event loop,
    // so the build is ready and queryable first. Readers see committed data either way.
    this.sqlite.pragma('wal_autocheckpoint = 0');
    try {
      this.sqlite.exec('COMMIT');
    } finally {
      this.sqlite.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    }
    setImmediate(() => {
      if (this.sqlite.open) this.sqlite.pragma('wal_checkpoint(PASSIVE)');
    });
  }

  rollback(): void {
    this.#bulk = false;
    this.#pathIds.clear(); // ids interned by the rolled-back transaction are gone
    this.#nameIds.clear();
    this.#uidIds.clear();

    if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
  }

  transaction<T>(fn: () => T): T {
    return this.sqlite.transaction(fn)();
  }

  touch(path: string, mtimeMs: number): void {
    this.#statements.touchFile.run(mtimeMs, path);
  }

  /** Replaces one file's facts; records definition changes at `epoch`. Call inside a transaction. */
  writeFile(write: FileWrite, epoch: number, existing: boolean): void {
    const { file, facts, search } = write;
    const st = this.#statements;
    // A bulk load starts from empty tables: a new file has no old definitions to look up.
    const rows =
      this.#bulk && !existing
        ? []
        : (st.defsOfPath.all(file.path) as Array<{
            def_uid: string;
            kind: string;
            qualified_name: string;
            body_hash: string;
          }>);
    const old = new Map(rows.map((row) => [row.def_uid, row]));
    if (old.size > 0 || existing) this.#clear(file.path);
    const fileRow = st.insertFile.run(
      file.path,
      file.language,
      file.size,
      file.mtimeMs,
      file.hash,
      file.lines,
      JSON.stringify({ localExports: facts.localExports, defaultExports: facts.defaultExports }),
      epoch,
    );
    facts.definitions.forEach((def, i) => {
      const defRow = st.insertDef.run(
        def.def_uid,
        this.#pathId(def.path),
        def.kind,
        def.name,
        def.qualified_name,
        def.start_line,
        def.start_col,
        def.end_line,
        def.end_col,
        def.name_line,
        def.name_col,
        def.signature,
        def.docstring,
        def.body_hash,
        def.exported ? 1 : 0,
      );
      const document = search.definitions[i]!;
      st.insertDefDoc.run(
        defRow.lastInsertRowid,
        document.nameTerms,
        def.qualified_name,
        def.signature,
        def.docstring ?? '',
        document.body,
        search.pathTerms,
      );
      const previous = old.get(def.def_uid);
      if (!previous || previous.body_hash !== def.body_hash)
        st.insertHistory.run(
          epoch,
          def.def_uid,
          this.#pathId(def.path),
          def.kind,
          def.qualified_name,
          previous ? 'modified' : 'added',
          previous?.body_hash ?? null,
          def.body_hash,
        );
      old.delete(def.def_uid);
    });
    for (const gone of old.values())
      st.insertHistory.run(
        epoch,
        gone.def_uid,
        this.#pathId(file.path),
        gone.kind,
        gone.qualified_name,
        'removed',
        gone.body_hash,
        null,
      );
    st.insertFileDoc.run(fileRow.lastInsertRowid, search.pathTerms, search.identifiers);
    // `#clear` dropped an earlier record; a new file of a bulk load has none
    const broken = facts.parseErrors;
    if (broken) st.insertParseErrors.run(file.path, broken.errors, broken.missing, broken.first_line, broken.first_col);
    else if (!(this.#bulk && !existing)) st.deleteParseErrors.run(file.path);
  }

  /** Removes a deleted file and records its definitions as removed at `epoch`. */
  deleteFile(path: string, epoch: number): void {
    for (const gone of this.#statements.defsOfPath.all(path) as Array<{
      def_uid: string;
      kind: string;
      qualified_name: string;
      body_hash: string;
    }>) {
      this.#statements.insertHistory.run(
        epoch,
        gone.def_uid,
        this.#pathId(path),
        gone.kind,
        gone.qualified_name,
        'removed',
        gone.body_hash,
        null,
      );
    }
    this.#clear(path);
    this.#statements.deleteImports.run(path);
    this.#deleteReferences(path);
  }

  #deleteReferences(path: string): void {
    const pathId = this.#statements.pathId.get(path) as number | undefined;
    if (pathId === undefined) return;
    const first = pathId * REF_PATH_SPAN;
    this.#statements.deleteNamePaths.run(pathId, first, first + REF_PATH_SPAN);
    this.#statements.deleteTargetPaths.run(pathId, first, first + REF_PATH_SPAN);
    this.#statements.deleteRefs.run(first, first + REF_PATH_SPAN);
  }

  #clear(path: string): void {
    const st = this.#statements;
    st.deleteDefDocs.run(path);
    st.deleteFileDoc.run(path);
    st.deleteFile.run(path);
    st.deleteDefs.run(path);
    st.deleteParseErrors.run(path);
  }

  /** Files that did not parse cleanly (`parse_errors`), by path. */
  parseErrors(): FileParseErrors[] {
    return this.sqlite
      .prepare(`SELECT path, errors, missing, first_line, first_col FROM parse_errors ORDER BY path`)
      .all() as FileParseErrors[];
  }

  replaceImports(path: string, edges: ImportEdge[]): void {
    this.#statements.deleteImports.run(path);
    for (const edge of edges)
      this.#statements.insertImport.run(
        this.#pathId(edge.from_path),
        edge.specifier,
        edge.kind,
        edge.to_path === null ? null : this.#pathId(edge.to_path),
        JSON.stringify(edge.bindings),
        edge.star ? 1 : 0,
        edge.line,
      );
  }

  replaceReferences(path: string, references: Reference[]): void {
    // A bulk load starts from empty tables: there is nothing to delete.
    if (!this.#bulk) this.#deleteReferences(path);
    if (references.length === 0) return;
    if (references.length > REF_PATH_SPAN)
      throw new Error(`index store: ${path} has ${references.length} references, more than ${REF_PATH_SPAN} per file`);
    const { insertRef, insertRefBatch, insertNamePath, insertTargetPath } = this.#statements;
    const pathId = this.#pathId(path);
    const first = pathId * REF_PATH_SPAN;
    const names = new Set<number>();
    const targets = new Set<number>();
    const columns = (r: Reference, ordinal: number, into: unknown[], offset: number): unknown[] => {
      const nameId = this.#nameId(r.name);
      names.add(nameId);
      into[offset] = first + ordinal;
      into[offset + 1] = nameId;
      into[offset + 2] = this.#nameId(r.context);
      into[offset + 3] = r.start_line;
      into[offset + 4] = r.start_col;
      into[offset + 5] = r.end_line === r.start_line ? null : r.end_line;
      // NULL reads back as start_col + length(name); SQLite's length counts characters, so only for ASCII names.
      into[offset + 6] = r.end_col === r.start_col + r.name.length && !NON_ASCII.test(r.name) ? null : r.end_col;
      into[offset + 7] = r.qualifier === null ? null : this.#nameId(r.qualifier);
      into[offset + 8] = r.from_def_uid === null ? null : this.#uidId(r.from_def_uid);
      const toId = r.to_def_uid === null ? null : this.#uidId(r.to_def_uid);
      if (toId !== null) targets.add(toId);
      into[offset + 9] = toId;
      return into;
    };
    const values = new Array<unknown>(REF_BATCH * REF_COLUMNS);
    let at = 0;
    for (; at + REF_BATCH <= references.length; at += REF_BATCH) {
      for (let i = 0; i < REF_BATCH; i++) columns(references[at + i]!, at + i, values, i * REF_COLUMNS);
      insertRefBatch.run(values);
    }
    const row = new Array<unknown>(REF_COLUMNS);
    for (; at < references.length; at++) insertRef.run(columns(references[at]!, at, row, 0));
    for (const nameId of names) insertNamePath.run(nameId, pathId);
    for (const toId of targets) insertTargetPath.run(toId, pathId);
  }

  /** The interned id of a definition uid (`def_uids`, which holds it as `storedUid`); ids are never reused. */
  #uidId(uid: string): number {
    return this.#interned(this.#uidIds, uid, this.#statements.insertUid, this.#statements.uidId, storedUid);
  }

  /** The interned id of a reference's name, context or qualifier (`ref_names`); ids are never reused. */
  #nameId(name: string): number {
    return this.#interned(this.#nameIds, name, this.#statements.insertName, this.#statements.nameId);
  }

  /** The interned id of a path (`paths`), created on first use; ids are never reused. */
  #pathId(path: string): number {
    return this.#interned(this.#pathIds, path, this.#statements.insertPath, this.#statements.pathId);
  }

  /**
   * `key`'s id from `ids`, else its stored form (`toStored`, made only then: this runs for every reference written)
   * inserted (ignored when there) and its id read back and remembered.
   */
  #interned(
    ids: Map<string, number>,
    key: string,
    insert: { run(value: unknown): unknown },
    select: { get(value: unknown): unknown },
    toStored: (key: string) => unknown = (same) => same,
  ): number {
    let id = ids.get(key);
    if (id === undefined) {
      const stored = toStored(key);
      insert.run(stored);
      id = select.get(stored) as number;
      ids.set(key, id);
    }
    return id;
  }

  setEpoch(epoch: number): void {
    this.#statements.setEpoch.run(String(epoch));
  }

  moduleExports(path: string): ModuleExports {
    const row = this.sqlite.prepare(`SELECT exports FROM files WHERE path = ?`).get(path) as
      { exports: string } | undefined;
    return row ? (JSON.parse(row.exports) as ModuleExports) : { localExports: [], defaultExports: [] };
  }

  definitionsOf(path: string): Definition[] {
    return (
      this.sqlite.prepare(`SELECT * FROM definitions WHERE path = ?`).all(path) as Array<
        Definition & { exported: number }
      >
    ).map(toDefinition);
  }

  importsOf(path: string): ImportEdge[] {
    return (
      this.sqlite.prepare(`SELECT * FROM imports WHERE from_path = ? ORDER BY line, id`).all(path) as ImportRow[]
    ).map(toImportEdge);
  }

  changesAt(epoch: number): DefinitionChange[] {
    return this.sqlite
      .prepare(
        `SELECT epoch, def_uid, path, kind, qualified_name, change, old_body_hash, ` +
          `new_body_hash FROM def_history WHERE epoch = ? ORDER BY id`,
      )
      .all(epoch) as DefinitionChange[];
  }

  close(): void {
    this.sqlite.close();
  }
}

export interface ImportRow {
  from_path: string;
  specifier: string;
  kind: ImportEdge['kind'];
  to_path: string | null;
  bindings: string;
  star: number;
  line: number;
}

export function toImportEdge(row: ImportRow): ImportEdge {
  const bindings = JSON.parse(row.bindings) as ImportEdge['bindings'];
  return {
    from_path: row.from_path,
    specifier: row.specifier,
    kind: row.kind,
    to_path: row.to_path,
    names: bindings.map((binding) => binding.imported),
    bindings,
    star: row.star === 1,
    line: row.line,
  };
}

export function toDefinition(row: Definition & { exported: number | boolean }): Definition {
  return { ...row, exported: Boolean(row.exported) };
}
