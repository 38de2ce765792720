/**
 * Ordered schema migrations; `PRAGMA user_version` records how many ran. The index is a cache of
 * the repository, so an unknown (newer or foreign) schema is rebuilt, never migrated backwards.
 */
export const MIGRATIONS: readonly string[][] = [
  [
    `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    `CREATE TABLE files (path TEXT PRIMARY KEY, language TEXT NOT NULL, size INTEGER NOT NULL, mtime_ms REAL NOT NULL, hash TEXT NOT NULL, lines INTEGER NOT NULL, exports TEXT NOT NULL, epoch INTEGER NOT NULL)`,
    `CREATE TABLE definitions (def_uid TEXT PRIMARY KEY, path TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, qualified_name TEXT NOT NULL,
      start_line INTEGER NOT NULL, start_col INTEGER NOT NULL, end_line INTEGER NOT NULL, end_col INTEGER NOT NULL, name_line INTEGER NOT NULL, name_col INTEGER NOT NULL,
      signature TEXT NOT NULL, docstring TEXT, body_hash TEXT NOT NULL, exported INTEGER NOT NULL)`,
    `CREATE INDEX definitions_path ON definitions(path)`,
    `CREATE INDEX definitions_name ON definitions(name)`,
    `CREATE TABLE refs (id INTEGER PRIMARY KEY, path TEXT NOT NULL, name TEXT NOT NULL, context TEXT NOT NULL,
      start_line INTEGER NOT NULL, start_col INTEGER NOT NULL, end_line INTEGER NOT NULL, end_col INTEGER NOT NULL, qualifier TEXT, from_def_uid TEXT, to_def_uid TEXT)`,
    `CREATE INDEX refs_path ON refs(path)`,
    `CREATE INDEX refs_name ON refs(name)`,
    `CREATE INDEX refs_to ON refs(to_def_uid)`,
    `CREATE TABLE imports (id INTEGER PRIMARY KEY AUTOINCREMENT, from_path TEXT NOT NULL, specifier TEXT NOT NULL, kind TEXT NOT NULL, to_path TEXT, bindings TEXT NOT NULL, star INTEGER NOT NULL, line INTEGER NOT NULL)`,
    `CREATE INDEX imports_from ON imports(from_path)`,
    `CREATE INDEX imports_to ON imports(to_path)`,
    `CREATE TABLE def_history (id INTEGER PRIMARY KEY AUTOINCREMENT, epoch INTEGER NOT NULL, def_uid TEXT NOT NULL, path TEXT NOT NULL, kind TEXT NOT NULL, qualified_name TEXT NOT NULL, change TEXT NOT NULL, old_body_hash TEXT, new_body_hash TEXT)`,
    `CREATE INDEX def_history_epoch ON def_history(epoch)`,
    // Lexical search documents (BM25 through FTS5's bm25()). name_terms holds the name split into parts.
    `CREATE VIRTUAL TABLE fts_definitions USING fts5(def_uid UNINDEXED, path UNINDEXED, name_terms, qualified_name, signature, docstring, body, path_terms, tokenize = 'unicode61')`,
    `CREATE VIRTUAL TABLE fts_files USING fts5(path UNINDEXED, path_terms, identifiers, tokenize = 'unicode61')`,
  ],
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Secondary indexes a first build drops and recreates: building them once after a bulk load is cheaper. */
export const BULK_LOAD_INDEXES: ReadonlyArray<{ name: string; create: string }> = [
  { name: 'refs_path', create: 'CREATE INDEX refs_path ON refs(path)' },
  { name: 'refs_name', create: 'CREATE INDEX refs_name ON refs(name)' },
  { name: 'refs_to', create: 'CREATE INDEX refs_to ON refs(to_def_uid)' },
];
