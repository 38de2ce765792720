import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '@agentgov/core';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { REFERENCE_CONTEXTS } from '@agentgov/core/contracts';
import { PACKED_FIELDS, PackedField } from '../compact-references.js';
import type { FileFacts, ParseErrors } from '../extract-file.js';
import type { ResolvedReferences } from '../resolution/reference-resolver.js';
import type { SearchDocuments } from '../search-terms.js';
import type { Definition, DefinitionChange, ImportEdge, Reference } from '../types.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { decodeReferences, REF_FIELDS, RefField, ReferenceBlobWriter } from './reference-blob.js';
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

/**
 * SQLite's page cache per connection, in KiB. The OS keeps the file's pages cached anyway; 64 MiB bought no CPU on
 * sympy's cold build (30.6-31.6 s at 8-16 MiB against 32.5 s) and held ~60 MB of resident memory for the session.
 */
const PAGE_CACHE_KIB = 16 * 1024;
/** SQLite's default automatic checkpoint threshold. */
const WAL_AUTOCHECKPOINT_PAGES = 1000;
/** Rows per insert of id pairs, largest first; the last, 1, takes the rest. */
const PAIR_BATCHES = [64, 8, 1];

/**
 * `compute(index)` for indexes 0 … size − 1, each computed on its first use only (results are ids ≥ −1).
 */
function onceEach(size: number, compute: (index: number) => number): (index: number) => number {
  const known = new Int32Array(size).fill(-2);
  return (index) => {
    let value = known[index]!;
    if (value === -2) known[index] = value = compute(index);
    return value;
  };
}

const UID = /^[0-9a-f]{16}$/;
const TOP_BIT = 1n << 63n;

/** Whether `uid` is a stored definition's uid (16 hex digits); the recon view's own entries (`module:…`) are not. */
export function isStoredUid(uid: string): boolean {
  return UID.test(uid);
}

/**
 * A def uid (16 hex digits) as `def_uids` stores it: its 64-bit value with the top bit flipped, as a signed integer,
 * so integer order is text order (`uidFromStored` reads it back). Anything else is refused rather than stored wrongly.
 */
export function storedUid(uid: string): bigint {
  if (!isStoredUid(uid))
    throw new Error(`index store: a reference names definition uid ${JSON.stringify(uid)}, not 16 hex digits`);
  return BigInt.asIntN(64, BigInt(`0x${uid}`) ^ TOP_BIT);
}

/** A stored uid (`storedUid`) back to its 16 hex digits. */
function uidFromStored(stored: bigint): string {
  return (BigInt.asUintN(64, stored) ^ TOP_BIT).toString(16).padStart(16, '0');
}

/** The reference whose fields start at `at` (reference-blob.ts), its ids read back through `name` and `uid`. */
function referenceAt(
  fields: Int32Array,
  at: number,
  path: string,
  name: (id: number) => string,
  uid: (id: number) => string,
): Reference {
  const qualifier = fields[at + RefField.Qualifier]!;
  const from = fields[at + RefField.From]!;
  const to = fields[at + RefField.To]!;
  return {
    path,
    name: name(fields[at + RefField.Name]!),
    context: name(fields[at + RefField.Context]!) as Reference['context'],
    start_line: fields[at + RefField.StartLine]!,
    start_col: fields[at + RefField.StartCol]!,
    end_line: fields[at + RefField.EndLine]!,
    end_col: fields[at + RefField.EndCol]!,
    qualifier: qualifier < 0 ? null : name(qualifier),
    from_def_uid: from < 0 ? null : uid(from),
    to_def_uid: to < 0 ? null : uid(to),
  };
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
  /** `#insertPairs`' multi-row statements by table and row count. */
  readonly #pairStatements = new Map<string, Database.Statement>();
  /** The encoder `replaceReferences` reuses for each file's blob. */
  readonly #blob = new ReferenceBlobWriter();

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
      insertRefFile: s.prepare(`INSERT OR REPLACE INTO ref_files (path_id, count, refs) VALUES (?, ?, ?)`),
      refFile: s.prepare(`SELECT count, refs FROM ref_files WHERE path_id = ?`),
      deleteRefFile: s.prepare(`DELETE FROM ref_files WHERE path_id = ?`),
      deleteNamePath: s.prepare(`DELETE FROM ref_name_paths WHERE name_id = ? AND path_id = ?`),
      deleteTargetPath: s.prepare(`DELETE FROM ref_target_paths WHERE to_id = ? AND path_id = ?`),
      namePaths: s.prepare(`SELECT path_id FROM ref_name_paths WHERE name_id = ?`).pluck(),
      targetPaths: s.prepare(`SELECT path_id FROM ref_target_paths WHERE to_id = ?`).pluck(),
      pathOf: s.prepare(`SELECT path FROM paths WHERE id = ?`).pluck(),
      nameOf: s.prepare(`SELECT name FROM ref_names WHERE id = ?`).pluck(),
      uidOf: s.prepare(`SELECT uid FROM def_uids WHERE id = ?`).pluck().safeIntegers(),
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
    const st = this.#statements;
    const pathId = st.pathId.get(path) as number | undefined;
    if (pathId === undefined) return;
    const old = this.#referenceFields(pathId);
    const names = new Set<number>();
    const targets = new Set<number>();
    for (let at = 0; at < old.length; at += REF_FIELDS) {
      names.add(old[at + RefField.Name]!);
      if (old[at + RefField.To]! >= 0) targets.add(old[at + RefField.To]!);
    }
    for (const nameId of names) st.deleteNamePath.run(nameId, pathId);
    for (const toId of targets) st.deleteTargetPath.run(toId, pathId);
    st.deleteRefFile.run(pathId);
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

  /**
   * Replaces a file's references with its resolved ones. Each distinct string, context and resolution is interned
   * once per file, on first use (so ids are handed out in the references' order).
   */
  replaceReferences(path: string, resolved: ResolvedReferences): void {
    // A bulk load starts from empty tables: there is nothing to delete.
    if (!this.#bulk) this.#deleteReferences(path);
    const { references, resolutionOf, resolutions } = resolved;
    const { strings, ints } = references;
    if (!resolutionOf.some((resolution) => resolution >= 0)) return;
    const pathId = this.#pathId(path);
    // Ids interned on first use, each at most once per file: the file's strings, the contexts, the resolutions'
    // definitions. First use keeps the order ids were handed out in before (the tables come out the same).
    const stringId = onceEach(strings.length, (index) => this.#nameId(strings[index]!));
    const contextId = onceEach(REFERENCE_CONTEXTS.length, (index) => this.#nameId(REFERENCE_CONTEXTS[index]!));
    const uidId = (uid: string | null): number => (uid === null ? -1 : this.#uidId(uid));
    const fromId = onceEach(resolutions.length, (index) => uidId(resolutions[index]!.from));
    const toId = onceEach(resolutions.length, (index) => uidId(resolutions[index]!.to));
    const names = new Set<number>();
    const targets = new Set<number>();
    const blob = this.#blob;
    blob.reset();
    for (let i = 0, at = 0; i < resolutionOf.length; i++, at += PACKED_FIELDS) {
      const resolution = resolutionOf[i]!;
      if (resolution < 0) continue;
      const name = stringId(ints[at + PackedField.Name]!);
      names.add(name);
      const to = toId(resolution);
      if (to >= 0) targets.add(to);
      const context = contextId(ints[at + PackedField.Context]!);
      const qualifier = ints[at + PackedField.Qualifier]!;
      blob.addFields(
        name,
        context,
        ints[at + PackedField.StartLine]!,
        ints[at + PackedField.StartCol]!,
        ints[at + PackedField.EndLine]!,
        ints[at + PackedField.EndCol]!,
        qualifier < 0 ? -1 : stringId(qualifier),
        fromId(resolution),
        to,
      );
    }
    this.#statements.insertRefFile.run(pathId, blob.count, blob.encoded());
    this.#insertPairs('ref_name_paths (name_id, path_id)', names, pathId);
    this.#insertPairs('ref_target_paths (to_id, path_id)', targets, pathId);
  }

  /**
   * (id, pathId) for each id, several rows per statement: with one statement per row these two tables took ~17 %
   * of sympy's resolve-and-write phase, mostly in the cost of a statement rather than of its row. Only after the
   * FTS documents are written: a multi-row statement opens a savepoint, and FTS5 flushes its pending terms into a
   * new segment at every savepoint (batching the definition rows per file made the build slower).
   */
  #insertPairs(table: string, ids: Iterable<number>, pathId: number): void {
    const values: number[] = [];
    for (const id of ids) values.push(id, pathId);
    let at = 0;
    for (const rows of PAIR_BATCHES) {
      if (values.length - at < rows * 2) continue;
      const key = `${table}:${rows}`;
      let statement = this.#pairStatements.get(key);
      if (!statement) {
        statement = this.sqlite.prepare(
          `INSERT OR IGNORE INTO ${table} VALUES ${Array.from({ length: rows }, () => '(?, ?)').join(', ')}`,
        );
        this.#pairStatements.set(key, statement);
      }
      for (; values.length - at >= rows * 2; at += rows * 2) statement.run(values.slice(at, at + rows * 2));
    }
  }

  /** A file's references as ids, REF_FIELDS int32 fields each (reference-blob.ts), in the order they were written. */
  #referenceFields(pathId: number): Int32Array {
    const row = this.#statements.refFile.get(pathId) as { count: number; refs: Buffer } | undefined;
    return row ? decodeReferences(row.refs, row.count) : new Int32Array(0);
  }

  /** Every file's references as ids: (path id, fields) per file with references, in path id order. */
  *allReferenceFields(): Generator<[number, Int32Array]> {
    const rows = this.sqlite
      .prepare(`SELECT path_id AS pathId, count, refs FROM ref_files ORDER BY path_id`)
      .iterate() as Iterable<{ pathId: number; count: number; refs: Buffer }>;
    for (const row of rows) yield [row.pathId, decodeReferences(row.refs, row.count)];
  }

  referenceCount(): number {
    return this.sqlite.prepare(`SELECT coalesce(sum(count), 0) FROM ref_files`).pluck().get() as number;
  }

  /** The files whose references include a name (`ref_name_paths`), by path id. */
  #pathsReferencingName(nameId: number): number[] {
    return this.#statements.namePaths.all(nameId) as number[];
  }

  /** The files whose references resolve to a definition (`ref_target_paths`), by path id. */
  #pathsReferencingDefinition(uidId: number): number[] {
    return this.#statements.targetPaths.all(uidId) as number[];
  }

  /**
   * The references matching every filter given, ordered by path, position and the order written. A filter naming
   * what the store never held (an unknown path, name or uid, or a uid that is not 16 hex digits) matches nothing.
   */
  references(filter: { toDefUid?: string; name?: string; path?: string; fromDefUid?: string }): Reference[] {
    const lookup = <T>(value: T | undefined, id: (value: T) => number | undefined): number | null | undefined =>
      value === undefined ? undefined : (id(value) ?? null);
    const to = lookup(filter.toDefUid, (uid) => this.#storedUidId(uid));
    const from = lookup(filter.fromDefUid, (uid) => this.#storedUidId(uid));
    const name = lookup(filter.name, (text) => this.#storedNameId(text));
    const pathId = lookup(filter.path, (path) => this.#storedPathId(path));
    if (to === null || from === null || name === null || pathId === null) return [];
    const pathIds =
      pathId !== undefined
        ? [pathId]
        : to !== undefined
          ? this.#pathsReferencingDefinition(to)
          : name !== undefined
            ? this.#pathsReferencingName(name)
            : (this.sqlite.prepare(`SELECT path_id FROM ref_files`).pluck().all() as number[]);
    // the few ids an answer repeats, each read from the store once
    const remembered = (read: (id: number) => string) => {
      const known = new Map<number, string>();
      return (id: number) => {
        let text = known.get(id);
        if (text === undefined) known.set(id, (text = read(id)));
        return text;
      };
    };
    const nameOf = remembered((id) => this.#nameOfId(id));
    const uidOf = remembered((id) => this.#uidOfId(id));
    const found: Array<{ ref: Reference; ordinal: number }> = [];
    for (const id of pathIds) {
      const fields = this.#referenceFields(id);
      if (fields.length === 0) continue;
      const path = this.#pathOfId(id);
      for (let at = 0; at < fields.length; at += REF_FIELDS) {
        if (to !== undefined && fields[at + RefField.To] !== to) continue;
        if (from !== undefined && fields[at + RefField.From] !== from) continue;
        if (name !== undefined && fields[at + RefField.Name] !== name) continue;
        found.push({ ref: referenceAt(fields, at, path, nameOf, uidOf), ordinal: at / REF_FIELDS });
      }
    }
    found.sort(
      (a, b) =>
        (a.ref.path < b.ref.path ? -1 : a.ref.path > b.ref.path ? 1 : 0) ||
        a.ref.start_line - b.ref.start_line ||
        a.ref.start_col - b.ref.start_col ||
        a.ordinal - b.ordinal,
    );
    return found.map(({ ref }) => ref);
  }

  /**
   * A definition's callees (what its references in `path`, its own file, resolve to) and callers (the definitions
   * whose references resolve to it), each distinct, itself left out, in uid order — the reference graph's edges
   * (`buildDefGraph`) of one definition, read from the files that hold them.
   */
  definitionEdges(uid: string, path: string): { callees: string[]; callers: string[] } {
    const id = this.#storedUidId(uid);
    if (id === undefined) return { callees: [], callers: [] };
    const callees = new Set<number>();
    const pathId = this.#storedPathId(path);
    if (pathId !== undefined) {
      const fields = this.#referenceFields(pathId);
      for (let at = 0; at < fields.length; at += REF_FIELDS) {
        const to = fields[at + RefField.To]!;
        if (fields[at + RefField.From] === id && to >= 0 && to !== id) callees.add(to);
      }
    }
    const callers = new Set<number>();
    for (const referencing of this.#pathsReferencingDefinition(id)) {
      const fields = this.#referenceFields(referencing);
      for (let at = 0; at < fields.length; at += REF_FIELDS) {
        const from = fields[at + RefField.From]!;
        if (fields[at + RefField.To] === id && from >= 0 && from !== id) callers.add(from);
      }
    }
    const inUidOrder = (ids: Set<number>) => [...ids].map((other) => this.#uidOfId(other)).sort();
    return { callees: inUidOrder(callees), callers: inUidOrder(callers) };
  }

  /** Interned ids looked up without interning: undefined when the store has never held the key. */
  #storedPathId(path: string): number | undefined {
    return this.#pathIds.get(path) ?? (this.#statements.pathId.get(path) as number | undefined);
  }

  #storedNameId(name: string): number | undefined {
    return this.#nameIds.get(name) ?? (this.#statements.nameId.get(name) as number | undefined);
  }

  #storedUidId(uid: string): number | undefined {
    if (!isStoredUid(uid)) return undefined;
    return this.#uidIds.get(uid) ?? (this.#statements.uidId.get(storedUid(uid)) as number | undefined);
  }

  #pathOfId(pathId: number): string {
    return this.#statements.pathOf.get(pathId) as string;
  }

  #nameOfId(nameId: number): string {
    return this.#statements.nameOf.get(nameId) as string;
  }

  #uidOfId(uidId: number): string {
    return uidFromStored(this.#statements.uidOf.get(uidId) as bigint);
  }

  /** Every interned definition uid by id (`def_uids`), for reading many references at once. */
  uidsById(): Map<number, string> {
    const rows = this.sqlite.prepare(`SELECT id, uid FROM def_uids`).safeIntegers().raw().iterate() as Iterable<
      [bigint, bigint]
    >;
    const uids = new Map<number, string>();
    for (const [id, uid] of rows) uids.set(Number(id), uidFromStored(uid));
    return uids;
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
   * inserted (ignored when there: then its id is read back) and remembered.
   */
  #interned(
    ids: Map<string, number>,
    key: string,
    insert: { run(value: unknown): { changes: number; lastInsertRowid: number | bigint } },
    select: { get(value: unknown): unknown },
    toStored: (key: string) => unknown = (same) => same,
  ): number {
    let id = ids.get(key);
    if (id === undefined) {
      const stored = toStored(key);
      // a new key's id is the row just inserted; one already stored (ignored) is read back
      const inserted = insert.run(stored);
      id = inserted.changes === 1 ? Number(inserted.lastInsertRowid) : (select.get(stored) as number);
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
