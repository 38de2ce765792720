import { blob, index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Drizzle view of the index tables; the DDL itself lives in migrations.ts (FTS5 needs raw SQL). */
export const meta = sqliteTable('meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const files = sqliteTable('files', {
  path: text('path').primaryKey(),
  language: text('language').notNull(),
  size: integer('size').notNull(),
  mtimeMs: real('mtime_ms').notNull(),
  hash: text('hash').notNull(),
  lines: integer('lines').notNull(),
  /** JSON: `[{ exported, local }]` plus default-exported def_uids, for re-export resolution. */
  exports: text('exports').notNull(),
  epoch: integer('epoch').notNull(),
});

export const definitions = sqliteTable(
  'definitions',
  {
    defUid: text('def_uid').primaryKey(),
    path: text('path').notNull(),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    qualifiedName: text('qualified_name').notNull(),
    startLine: integer('start_line').notNull(),
    startCol: integer('start_col').notNull(),
    endLine: integer('end_line').notNull(),
    endCol: integer('end_col').notNull(),
    nameLine: integer('name_line').notNull(),
    nameCol: integer('name_col').notNull(),
    signature: text('signature').notNull(),
    docstring: text('docstring'),
    bodyHash: text('body_hash').notNull(),
    exported: integer('exported', { mode: 'boolean' }).notNull(),
  },
  // a view over `def_rows` (path ids, see migration 6); the store writes `def_rows`
);

/** Interned paths: path id → path (`ref_files`, `def_rows`, `import_rows`). Rows are never deleted. */
export const paths = sqliteTable('paths', {
  id: integer('id').primaryKey(),
  path: text('path').notNull().unique(),
});

/** Interned reference names, contexts and qualifiers. Rows are never deleted, so an id stays valid. */
export const refNames = sqliteTable('ref_names', {
  id: integer('id').primaryKey(),
  name: text('name').notNull().unique(),
});

/**
 * References as stored: one row per file holding them, `refs` a blob of `count` references (reference-blob.ts: ids
 * into `ref_names` and `def_uids`, positions delta-coded), read through `IndexStore` (`references`).
 */
export const refFiles = sqliteTable('ref_files', {
  pathId: integer('path_id').primaryKey(),
  count: integer('count').notNull(),
  refs: blob('refs', { mode: 'buffer' }).notNull(),
});

/** Which files reference a definition (the blobs have no index over their targets). */
export const refTargetPaths = sqliteTable(
  'ref_target_paths',
  { toId: integer('to_id').notNull(), pathId: integer('path_id').notNull() },
  (table) => [primaryKey({ columns: [table.toId, table.pathId] })],
);

/** Which files reference a name (the blobs have no index over their names). */
export const refNamePaths = sqliteTable(
  'ref_name_paths',
  { nameId: integer('name_id').notNull(), pathId: integer('path_id').notNull() },
  (table) => [primaryKey({ columns: [table.nameId, table.pathId] })],
);

export const imports = sqliteTable(
  'imports',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    fromPath: text('from_path').notNull(),
    specifier: text('specifier').notNull(),
    kind: text('kind').notNull(),
    toPath: text('to_path'),
    /** JSON `[{ imported, local }]`. */
    bindings: text('bindings').notNull(),
    star: integer('star', { mode: 'boolean' }).notNull(),
    line: integer('line').notNull(),
  },
  // a view over `import_rows` (path ids, see migration 6); the store writes `import_rows`
);

export const defHistory = sqliteTable(
  'def_history',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    epoch: integer('epoch').notNull(),
    defUid: text('def_uid').notNull(),
    path: text('path').notNull(),
    kind: text('kind').notNull(),
    qualifiedName: text('qualified_name').notNull(),
    change: text('change').notNull(),
    oldBodyHash: text('old_body_hash'),
    newBodyHash: text('new_body_hash'),
  },
  // a view over `def_history_rows` (path ids, see migration 6); the store writes `def_history_rows`
);

/** The last result of each test case (test impact). */
export const testCases = sqliteTable(
  'test_cases',
  {
    testId: text('test_id').primaryKey(),
    runner: text('runner').notNull(),
    file: text('file').notNull(),
    /** JSON title path. */
    title: text('title').notNull(),
    status: text('status').notNull(),
    durationMs: real('duration_ms').notNull(),
    /** JSON `{ message, stack }` when it failed. */
    failure: text('failure'),
    runAt: integer('run_at').notNull(),
  },
  (table) => [index('test_cases_file').on(table.file)],
);

/** Which files a test (or a test file's loading, scope `file`) covered, with each file's content hash at run time. */
export const coverageFiles = sqliteTable(
  'coverage_files',
  {
    scope: text('scope').notNull(),
    testId: text('test_id').notNull(),
    path: text('path').notNull(),
    hash: text('hash').notNull(),
    /** Where the facts came from: a runner name or an ingested report path. */
    source: text('source').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.scope, table.testId, table.path] }),
    index('coverage_files_path').on(table.path),
  ],
);

/** One covered line (1-based) of one file by one test. */
export const coverageLines = sqliteTable(
  'coverage_lines',
  {
    scope: text('scope').notNull(),
    testId: text('test_id').notNull(),
    path: text('path').notNull(),
    line: integer('line').notNull(),
  },
  (table) => [
    index('coverage_lines_path_line').on(table.path, table.line),
    index('coverage_lines_test').on(table.scope, table.testId),
  ],
);

export const indexSchema = {
  meta,
  files,
  definitions,
  paths,
  refNames,
  refFiles,
  refNamePaths,
  refTargetPaths,
  imports,
  defHistory,
  testCases,
  coverageFiles,
  coverageLines,
};
