/** Migration 6: a file’s reference rows were one rowid range of this width (`path_id * REF_PATH_SPAN + i`). */
export const REF_PATH_SPAN = 2 ** 24;

/** -2^63: a def uid is stored as its 64-bit value minus this (the top bit flipped), so integer order is text order. */
const UID_FLIP = '-9223372036854775808';

/** A stored uid column back to its 16 hex digits (NULL stays NULL): x XOR 2^63 written as (x | m) - (x & m). */
export function uidHexSql(column: string): string {
  const flipped = `(${column} | ${UID_FLIP}) - (${column} & ${UID_FLIP})`;
  return `CASE WHEN ${column} IS NULL THEN NULL ELSE printf('%016x', ${flipped}) END`;
}

/** SQL: the row `row` is one of the references of the file whose path id is the SQL expression `pathId`. */
export function inFileRefsSql(pathId: string, row = 'r'): string {
  return `${row}.id >= ${pathId} * ${REF_PATH_SPAN} AND ${row}.id < ${pathId} * ${REF_PATH_SPAN} + ${REF_PATH_SPAN}`;
}

/** The columns of a reference as the tools read it, over `REF_JOINS_SQL` (`r` the row, `p` its path). */
export const REF_COLUMNS_SQL =
  `r.id AS id, p.path AS path, n.name AS name, c.name AS context, r.start_line AS start_line, ` +
  `r.start_col AS start_col, coalesce(r.end_line, r.start_line) AS end_line, ` +
  `coalesce(r.end_col, r.start_col + length(n.name)) AS end_col, q.name AS qualifier, ` +
  `${uidHexSql('fu.uid')} AS from_def_uid, ${uidHexSql('tu.uid')} AS to_def_uid`;

export const REF_JOINS_SQL =
  `ref_rows r JOIN paths p ON p.id = r.id / ${REF_PATH_SPAN} JOIN ref_names n ON n.id = r.name_id ` +
  `JOIN ref_names c ON c.id = r.context_id LEFT JOIN ref_names q ON q.id = r.qualifier_id ` +
  `LEFT JOIN def_uids fu ON fu.id = r.from_id LEFT JOIN def_uids tu ON tu.id = r.to_id`;

/**
 * Ordered schema migrations; `PRAGMA user_version` records how many ran. The index is a cache of
 * the repository, so an unknown (newer or foreign) schema is rebuilt, never migrated backwards.
 */
export const MIGRATIONS: readonly string[][] = [
  [
    `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    `CREATE TABLE files (path TEXT PRIMARY KEY, language TEXT NOT NULL, size ` +
      `INTEGER NOT NULL, mtime_ms REAL NOT NULL, hash TEXT NOT NULL, lines INTEGER ` +
      `NOT NULL, exports TEXT NOT NULL, epoch INTEGER NOT NULL)`,
    `CREATE TABLE definitions (def_uid TEXT PRIMARY KEY, path TEXT NOT NULL, ` +
      `kind TEXT NOT NULL, name TEXT NOT NULL, qualified_name TEXT NOT NULL,
      start_line INTEGER NOT NULL, start_col INTEGER NOT NULL, end_line ` +
      `INTEGER NOT NULL, end_col INTEGER NOT NULL, name_line INTEGER NOT NULL, ` +
      `name_col INTEGER NOT NULL,
      signature TEXT NOT NULL, docstring TEXT, body_hash TEXT NOT NULL, ` +
      `exported INTEGER NOT NULL)`,
    `CREATE INDEX definitions_path ON definitions(path)`,
    `CREATE INDEX definitions_name ON definitions(name)`,
    `CREATE TABLE refs (id INTEGER PRIMARY KEY, path TEXT NOT NULL, name TEXT ` +
      `NOT NULL, context TEXT NOT NULL,
      start_line INTEGER NOT NULL, start_col INTEGER NOT NULL, end_line ` +
      `INTEGER NOT NULL, end_col INTEGER NOT NULL, qualifier TEXT, from_def_uid ` +
      `TEXT, to_def_uid TEXT)`,
    `CREATE INDEX refs_path ON refs(path)`,
    `CREATE INDEX refs_name ON refs(name)`,
    `CREATE INDEX refs_to ON refs(to_def_uid)`,
    `CREATE TABLE imports (id INTEGER PRIMARY KEY AUTOINCREMENT, from_path TEXT ` +
      `NOT NULL, specifier TEXT NOT NULL, kind TEXT NOT NULL, to_path TEXT, bindings ` +
      `TEXT NOT NULL, star INTEGER NOT NULL, line INTEGER NOT NULL)`,
    `CREATE INDEX imports_from ON imports(from_path)`,
    `CREATE INDEX imports_to ON imports(to_path)`,
    `CREATE TABLE def_history (id INTEGER PRIMARY KEY AUTOINCREMENT, epoch INTEGER ` +
      `NOT NULL, def_uid TEXT NOT NULL, path TEXT NOT NULL, kind TEXT NOT NULL, ` +
      `qualified_name TEXT NOT NULL, change TEXT NOT NULL, old_body_hash TEXT, ` +
      `new_body_hash TEXT)`,
    `CREATE INDEX def_history_epoch ON def_history(epoch)`,
    // Lexical search documents (BM25 through FTS5's bm25()). name_terms holds the name split into parts.
    `CREATE VIRTUAL TABLE fts_definitions USING fts5(def_uid UNINDEXED, path ` +
      `UNINDEXED, name_terms, qualified_name, signature, docstring, body, path_terms, ` +
      `tokenize = 'unicode61')`,
    `CREATE VIRTUAL TABLE fts_files USING fts5(path UNINDEXED, path_terms, identifiers, tokenize = 'unicode61')`,
  ],
  [
    // Test impact: the last result of each test case, and per-test coverage facts (test, file, line)
    // with the content hash of each covered file when the test ran (stale once the file changes).
    // scope 'test': test_id is a test case; scope 'file': what ran while test files loaded (import time).
    `CREATE TABLE test_cases (test_id TEXT PRIMARY KEY, runner TEXT NOT NULL, ` +
      `file TEXT NOT NULL, title TEXT NOT NULL, status TEXT NOT NULL, duration_ms ` +
      `REAL NOT NULL, failure TEXT, run_at INTEGER NOT NULL)`,
    `CREATE INDEX test_cases_file ON test_cases(file)`,
    `CREATE TABLE coverage_files (scope TEXT NOT NULL, test_id TEXT NOT NULL, ` +
      `path TEXT NOT NULL, hash TEXT NOT NULL, source TEXT NOT NULL, PRIMARY KEY ` +
      `(scope, test_id, path))`,
    `CREATE INDEX coverage_files_path ON coverage_files(path)`,
    `CREATE TABLE coverage_lines (scope TEXT NOT NULL, test_id TEXT NOT NULL, ` +
      `path TEXT NOT NULL, line INTEGER NOT NULL)`,
    `CREATE INDEX coverage_lines_path_line ON coverage_lines(path, line)`,
    `CREATE INDEX coverage_lines_test ON coverage_lines(scope, test_id)`,
  ],
  [
    // The text of each covered file version (by content hash), so a change can be diffed against the
    // version a test's coverage was taken at when that is neither HEAD nor the working version.
    `CREATE TABLE coverage_sources (hash TEXT PRIMARY KEY, path TEXT NOT NULL, text TEXT NOT NULL)`,
  ],
  [
    // Parse health: files whose syntax tree holds error or missing nodes (their facts come from the partial tree).
    `CREATE TABLE parse_errors (path TEXT PRIMARY KEY, errors INTEGER NOT NULL, ` +
      `missing INTEGER NOT NULL, first_line INTEGER NOT NULL, first_col INTEGER ` +
      `NOT NULL)`,
  ],
  [
    // A compact store. FTS documents keep no copy of their text (contentless; a row shares the rowid of
    // its definitions/files row, which holds what a query shows), and references name their file by an
    // interned path id instead of repeating the path on every row. `refs` stays readable as a view.
    // Extraction version 4 rebuilds every index that ran this step (the FTS tables start empty).
    `DROP TABLE fts_definitions`,
    `DROP TABLE fts_files`,
    `CREATE VIRTUAL TABLE fts_definitions USING fts5(name_terms, qualified_name, ` +
      `signature, docstring, body, path_terms, content = '', contentless_delete ` +
      `= 1, tokenize = 'unicode61')`,
    `CREATE VIRTUAL TABLE fts_files USING fts5(path_terms, identifiers, content ` +
      `= '', contentless_delete = 1, tokenize = 'unicode61')`,
    `DROP TABLE refs`,
    `CREATE TABLE paths (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE)`,
    `CREATE TABLE ref_rows (id INTEGER PRIMARY KEY, path_id INTEGER NOT NULL, ` +
      `name TEXT NOT NULL, context TEXT NOT NULL,
      start_line INTEGER NOT NULL, start_col INTEGER NOT NULL, end_line ` +
      `INTEGER NOT NULL, end_col INTEGER NOT NULL, qualifier TEXT, from_def_uid ` +
      `TEXT, to_def_uid TEXT)`,
    `CREATE INDEX ref_rows_path ON ref_rows(path_id)`,
    `CREATE INDEX ref_rows_name ON ref_rows(name)`,
    `CREATE INDEX ref_rows_to ON ref_rows(to_def_uid)`,
    `CREATE VIEW refs AS SELECT r.id AS id, p.path AS path, r.name AS name, r.context ` +
      `AS context, r.start_line AS start_line,
      r.start_col AS start_col, r.end_line AS end_line, r.end_col AS end_col, ` +
      `r.qualifier AS qualifier,
      r.from_def_uid AS from_def_uid, r.to_def_uid AS to_def_uid FROM ref_rows ` +
      `r JOIN paths p ON p.id = r.path_id`,
  ],
  [
    // A compact reference store (issue 30: references were 157 of the combined tree's 260 MiB). A row's id is its
    // path id times REF_PATH_SPAN plus its ordinal in the file, so a file's references are one rowid range (no path
    // index); names, contexts and qualifiers are interned in `ref_names`; def uids (16 hex digits) are stored as
    // 64-bit integers with the top bit flipped, so integer order is the uids' text order, interned in `def_uids`
    // (a reference names its definitions by small ids; ids are never reused); end_line is NULL when it
    // is start_line and end_col NULL when it is start_col + length(name). `ref_name_paths` (which files reference a
    // name) and `ref_target_paths` (which files reference a definition) replace indexes over every row's name and
    // target: a file's rows are one range to scan. `refs` reads as before.
    // Extractor version 7 rebuilds every index that ran this step (the reference rows start empty) and every index
    // of an earlier form of this step (built on a branch before it was final).
    `DROP VIEW refs`,
    `DROP TABLE ref_rows`,
    `CREATE TABLE ref_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)`,
    `CREATE TABLE def_uids (id INTEGER PRIMARY KEY, uid INTEGER NOT NULL UNIQUE)`,
    `CREATE TABLE ref_rows (id INTEGER PRIMARY KEY, name_id INTEGER NOT NULL, context_id INTEGER NOT NULL, ` +
      `start_line INTEGER NOT NULL, start_col INTEGER NOT NULL, end_line INTEGER, end_col INTEGER, ` +
      `qualifier_id INTEGER, from_id INTEGER, to_id INTEGER)`,
    `CREATE TABLE ref_target_paths (to_id INTEGER NOT NULL, path_id INTEGER NOT NULL, ` +
      `PRIMARY KEY (to_id, path_id)) WITHOUT ROWID`,
    `CREATE TABLE ref_name_paths (name_id INTEGER NOT NULL, path_id INTEGER NOT NULL, ` +
      `PRIMARY KEY (name_id, path_id)) WITHOUT ROWID`,
    `CREATE VIEW refs AS SELECT ${REF_COLUMNS_SQL} FROM ${REF_JOINS_SQL}`,
    // Definitions, imports and the definition history name their files by path id too (`paths`); views under the
    // old names read as before. A definition's rowid (`def_rows`) stays its FTS document's rowid.
    `DROP TABLE definitions`,
    `CREATE TABLE def_rows (def_uid TEXT PRIMARY KEY, path_id INTEGER NOT NULL, kind TEXT NOT NULL, ` +
      `name TEXT NOT NULL, qualified_name TEXT NOT NULL, start_line INTEGER NOT NULL, start_col INTEGER NOT NULL, ` +
      `end_line INTEGER NOT NULL, end_col INTEGER NOT NULL, name_line INTEGER NOT NULL, name_col INTEGER NOT NULL, ` +
      `signature TEXT NOT NULL, docstring TEXT, body_hash TEXT NOT NULL, exported INTEGER NOT NULL)`,
    `CREATE INDEX def_rows_path ON def_rows(path_id)`,
    `CREATE INDEX def_rows_name ON def_rows(name)`,
    `CREATE VIEW definitions AS SELECT d.def_uid AS def_uid, p.path AS path, d.kind AS kind, d.name AS name, ` +
      `d.qualified_name AS qualified_name, d.start_line AS start_line, d.start_col AS start_col, ` +
      `d.end_line AS end_line, d.end_col AS end_col, d.name_line AS name_line, d.name_col AS name_col, ` +
      `d.signature AS signature, d.docstring AS docstring, d.body_hash AS body_hash, d.exported AS exported ` +
      `FROM def_rows d JOIN paths p ON p.id = d.path_id`,
    `DROP TABLE imports`,
    `CREATE TABLE import_rows (id INTEGER PRIMARY KEY AUTOINCREMENT, from_id INTEGER NOT NULL, ` +
      `specifier TEXT NOT NULL, kind TEXT NOT NULL, to_id INTEGER, bindings TEXT NOT NULL, star INTEGER NOT NULL, ` +
      `line INTEGER NOT NULL)`,
    `CREATE INDEX import_rows_from ON import_rows(from_id)`,
    `CREATE INDEX import_rows_to ON import_rows(to_id)`,
    `CREATE VIEW imports AS SELECT i.id AS id, f.path AS from_path, i.specifier AS specifier, i.kind AS kind, ` +
      `t.path AS to_path, i.bindings AS bindings, i.star AS star, i.line AS line FROM import_rows i ` +
      `JOIN paths f ON f.id = i.from_id LEFT JOIN paths t ON t.id = i.to_id`,
    `DROP TABLE def_history`,
    `CREATE TABLE def_history_rows (id INTEGER PRIMARY KEY AUTOINCREMENT, epoch INTEGER NOT NULL, ` +
      `def_uid TEXT NOT NULL, path_id INTEGER NOT NULL, kind TEXT NOT NULL, qualified_name TEXT NOT NULL, ` +
      `change TEXT NOT NULL, old_body_hash TEXT, new_body_hash TEXT)`,
    `CREATE INDEX def_history_rows_epoch ON def_history_rows(epoch)`,
    `CREATE VIEW def_history AS SELECT h.id AS id, h.epoch AS epoch, h.def_uid AS def_uid, p.path AS path, ` +
      `h.kind AS kind, h.qualified_name AS qualified_name, h.change AS change, h.old_body_hash AS old_body_hash, ` +
      `h.new_body_hash AS new_body_hash FROM def_history_rows h JOIN paths p ON p.id = h.path_id`,
  ],
  [
    // A file's references in one blob (reference-blob.ts) instead of a row each. The rows are not converted: the
    // extractor version is cleared, so the store is rebuilt from the source on this open.
    `DROP VIEW refs`,
    `DROP TABLE ref_rows`,
    `CREATE TABLE ref_files (path_id INTEGER PRIMARY KEY, count INTEGER NOT NULL, refs BLOB NOT NULL)`,
    `DELETE FROM meta WHERE key = 'extractor_version'`,
  ],
];

export const SCHEMA_VERSION = MIGRATIONS.length;
