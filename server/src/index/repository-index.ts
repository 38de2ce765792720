import { execFile } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { AgentgovError, type LanguagePack, type Logger } from '@agentgov/core';
import { and, eq, type SQL } from 'drizzle-orm';
import type { DirectedGraph } from 'graphology';
import { buildDefGraph, buildFileGraph } from '../graph/build-graphs.js';
import { KeptWhileUsed } from '../graph/kept-while-used.js';
import { buildLean, collectIfQuiet, onMemoryPressure, releaseFreedMemory } from '../memory.js';
import { nativeParseState } from './extract-file.js';
import { KnownNames, syncIndex, type SyncOptions, type SyncResult } from './index-sync.js';
import { ignoredDirectories } from './discovery.js';
import { IndexWatcher } from './index-watcher.js';
import {
  IndexStore,
  toDefinition,
  toImportEdge,
  type FileParseErrors,
  type ImportRow,
  type IndexDatabase,
} from './store/index-store.js';
import { definitions as definitionsTable, files as filesTable } from './store/schema.js';
import type {
  Definition,
  DefinitionChange,
  DefUid,
  ImportEdge,
  IndexedFile,
  IndexProgress,
  IndexStats,
  Reference,
} from './types.js';

export { extractFile } from './extract-file.js';

const run = promisify(execFile);
/**
 * A sync that indexed this many files has freed enough native memory to be worth returning (`malloc_trim` walks
 * every heap: a few milliseconds, not worth it for an edit's re-index).
 */
const RELEASE_MEMORY_AFTER_FILES = 256;

export const INDEX_DIR = '.agentgov';
export const INDEX_FILE = 'index.db';
export const DEFAULT_DEBOUNCE_MS = 50;
/** How long the definition graph is kept after it was last asked for when the options give no time. */
export const DEFAULT_GRAPH_KEEP_MS = 30_000;
/**
 * How long the definition graph must have gone unasked before the server, over its memory target
 * (`server.memory_target_mb`), lets it go early: an agent working with the graph tools keeps it.
 */
export const GRAPH_IDLE_BEFORE_PRESSURE_MS = 5_000;

export interface OpenRepositoryIndexOptions {
  root: string;
  languages: readonly LanguagePack[];
  logger: Logger;
  /** Files larger than this are skipped and counted (default 1 MiB). */
  maxFileBytes?: number;
  /** Globs (or directory prefixes) never indexed, on top of `.agentgov/` and `node_modules/`. */
  exclude?: string[];
  /**
   * Worker threads that read, parse and extract when a sync has many files (default: one per 1,000
   * files to parse, at most one per available core; 0 = always on the calling thread). Started per
   * sync, stopped when its last file is parsed.
   */
  extractWorkers?: number;
  /** The calling thread extracts queued files too while it waits on the workers (default true). */
  extractOnMainThread?: boolean;
  /** Re-index changed, added, deleted and renamed files as they happen (default false). */
  watch?: boolean;
  debounceMs?: number;
  /**
   * Characters of file text the recon view keeps in memory, least recently used evicted first
   * (`server.index.text_cache_mb`; default 64 Mi).
   */
  textCacheChars?: number;
  /**
   * Names the recon view remembers as present in the code or not, least recently asked evicted first
   * (`server.index.known_names_max`; default 50,000).
   */
  knownNamesMax?: number;
  /**
   * How long the definition graph stays in memory after a call last asked for it (`server.index.graph_keep_seconds`;
   * default 30 s); afterwards it is built again when asked for.
   */
  graphKeepMs?: number;
}

export interface IndexUpdate {
  epoch: number;
  changedFiles: string[];
  /** Files whose references were resolved again: the changed ones and those the change can affect. */
  resolvedFiles: number;
}

export interface RepositoryIndex extends EventEmitter {
  readonly root: string;
  /** Cap on the file text the recon view keeps in memory (characters); undefined: its default. */
  readonly textCacheChars?: number;
  /** Cap on the names the recon view remembers as known or unknown; undefined: its default. */
  readonly knownNamesMax?: number;
  /** Resolves when the first build is committed. */
  readonly ready: Promise<void>;
  /** Drizzle handle on the index database (tables in store/schema.ts; FTS5: fts_definitions, fts_files). */
  readonly db: IndexDatabase;
  /** True when a language pack's own convention marks the file as test code (`LanguagePack.testPath`). */
  isLanguageTestFile(path: string): boolean;
  isReady(): boolean;
  progress(): IndexProgress;
  epoch(): number;
  stats(): IndexStats;
  files(): IndexedFile[];
  definitions(filter?: { path?: string; name?: string; kind?: string; qualifiedName?: string }): Definition[];
  definition(defUid: DefUid): Definition | undefined;
  references(filter: { toDefUid?: DefUid; name?: string; path?: string; fromDefUid?: DefUid }): Reference[];
  /**
   * A definition's callees (what its references in `path`, its own file, resolve to) and callers, distinct, itself
   * left out, in uid order: its edges of `defGraph()` without building the graph.
   */
  definitionEdges(defUid: DefUid, path: string): { callees: DefUid[]; callers: DefUid[] };
  imports(path: string): ImportEdge[];
  importers(path: string): ImportEdge[];
  fileGraph(): DirectedGraph;
  defGraph(): DirectedGraph;
  /** The definition graph if the index holds it now (never builds it), for what can be taken from it before it goes. */
  keptDefGraph?(): DirectedGraph | undefined;
  /** Definition changes committed at exactly `epoch`. */
  definitionsChangedAt(epoch: number): DefinitionChange[];
  /** Net definition changes after `epoch` up to now, one per def_uid (for `semantic_diff` with `epoch:N`). */
  definitionsChangedSince(epoch: number): DefinitionChange[];
  /** Indexed files whose syntax tree holds errors (their facts come from the partial tree), by path. */
  parseErrors(): FileParseErrors[];
  /** Re-index now (what the watcher does); resolves with the committed epoch. */
  refresh(): Promise<IndexUpdate>;
  /** The language packs this index parses with. */
  languages?(): readonly LanguagePack[];
  close(): Promise<void>;
}

/** `.agentgov/` goes into the repository's own `.git/info/exclude`, never into a tracked file. */
async function excludeIndexDir(root: string, logger: Logger): Promise<void> {
  try {
    const { stdout } = await run('git', ['rev-parse', '--git-path', 'info/exclude'], { cwd: root });
    const file = resolve(root, stdout.trim());
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (current.split('\n').some((line) => line.trim() === `${INDEX_DIR}/` || line.trim() === `/${INDEX_DIR}/`)) return;
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, `${current.length > 0 && !current.endsWith('\n') ? '\n' : ''}${INDEX_DIR}/\n`);
  } catch (error) {
    logger.debug('not a git work tree; .agentgov/ not added to info/exclude', {
      root,
      error: (error as Error).message,
    });
  }
}

class SqliteRepositoryIndex extends EventEmitter implements RepositoryIndex {
  readonly root: string;
  readonly textCacheChars: number | undefined;
  readonly knownNamesMax: number | undefined;
  readonly ready: Promise<void>;
  readonly #store: IndexStore;
  readonly #options: OpenRepositoryIndexOptions;
  readonly #knownNames = new KnownNames();
  #progress: IndexProgress = { done: 0, total: 0, phase: 'discovering' };
  #ready = false;
  #skipped: Record<string, number> = {};
  #queue: Promise<unknown> = Promise.resolve();
  #queued: Promise<IndexUpdate> | null = null;
  #queuedPaths: Set<string> | null = null;
  readonly #memo: SyncOptions['memo'] = {};
  #watcher: IndexWatcher | null = null;
  #graphs: { epoch: number; file?: DirectedGraph; def: KeptWhileUsed<DirectedGraph> };
  #closed = false;
  readonly #stopPressure: () => void;

  constructor(root: string, store: IndexStore, options: OpenRepositoryIndexOptions) {
    super();
    this.root = root;
    this.textCacheChars = options.textCacheChars;
    this.knownNamesMax = options.knownNamesMax;
    this.#store = store;
    this.#options = options;
    this.#graphs = { epoch: -1, def: this.#keptDefGraph() };
    // Over the server's memory target the definition graph goes first: the largest thing held that is built again;
    // before a one-time build (`atOnce`) even when a call has just used it (recon_scout before the first recon).
    this.#stopPressure = onMemoryPressure((atOnce) => {
      if (atOnce) this.#graphs.def.clear();
      else this.#graphs.def.releaseIfIdle(GRAPH_IDLE_BEFORE_PRESSURE_MS);
    });
    // From the table, not the `definitions` view: the view's join to `paths` made this grouping a third of a restart
    // on a large index (every definition has its path row, so the counts are the same).
    for (const [name, count] of store.sqlite
      .prepare(`SELECT name, count(*) FROM def_rows GROUP BY name`)
      .raw()
      .iterate() as Iterable<[string, number]>) {
      this.#knownNames.add(name, count);
    }
    this.ready = this.refresh().then(() => {
      this.#ready = true;
    });
    // A failed first build is reported to whoever awaits `ready`, never as an unhandled rejection.
    this.ready.catch((error: Error) => options.logger.error('first index build failed', { error: error.message }));
  }

  get db(): IndexDatabase {
    return this.#store.db;
  }

  /** True when a language pack's own convention marks the file as test code (`testPath`). */
  isLanguageTestFile(path: string): boolean {
    return this.#options.languages.some(
      (pack) =>
        pack.testPath !== undefined && pack.extensions.some((ext) => path.endsWith(ext)) && pack.testPath.test(path),
    );
  }

  async startWatching(debounceMs: number): Promise<void> {
    const ignored = await ignoredDirectories(this.root);
    if (this.#closed) return;
    this.#watcher = new IndexWatcher(
      this.root,
      debounceMs,
      (paths) => {
        this.#sync(paths).catch((error: Error) =>
          this.#options.logger.error('re-index after a file change failed', { error: error.message }),
        );
      },
      (error) =>
        this.#options.logger.warn('file watcher error; watching goes on', {
          error: error.message,
          code: (error as NodeJS.ErrnoException).code,
        }),
      ignored,
    );
    return this.#watcher.ready;
  }

  refresh(): Promise<IndexUpdate> {
    return this.#sync(null);
  }

  /**
   * Serialized: at most one sync runs, and requests while one runs collapse into one follow-up.
   * `paths` (from the watcher) allows the quick path; null (an explicit refresh) forces full discovery.
   */
  #sync(paths: readonly string[] | null): Promise<IndexUpdate> {
    if (this.#queued) {
      if (paths === null || this.#queuedPaths === null) this.#queuedPaths = null;
      else for (const path of paths) this.#queuedPaths.add(path);
      return this.#queued;
    }
    this.#queuedPaths = paths === null ? null : new Set(paths);
    const next = this.#queue.then(() => {
      const hint = this.#queuedPaths;
      this.#queued = null;
      this.#queuedPaths = null;
      return this.#runSync(hint === null ? undefined : [...hint]);
    });
    this.#queued = next;
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #runSync(changedPaths: string[] | undefined): Promise<IndexUpdate> {
    if (this.#closed) return { epoch: this.epoch(), changedFiles: [], resolvedFiles: 0 };
    const result: SyncResult = await syncIndex(this.#store, this.#knownNames, {
      root: this.root,
      languages: this.#options.languages,
      logger: this.#options.logger,
      maxFileBytes: this.#options.maxFileBytes,
      exclude: this.#options.exclude,
      extractWorkers: this.#options.extractWorkers,
      extractOnMainThread: this.#options.extractOnMainThread,
      changedPaths,
      memo: this.#memo,
      onProgress: (progress) => {
        this.#progress = progress;
        this.emit('progress', { done: progress.done, total: progress.total, phase: progress.phase });
      },
    });
    this.#skipped = result.skipped;
    if (result.changedFiles.length >= RELEASE_MEMORY_AFTER_FILES)
      // What a large sync's parsing freed (its worker threads' heaps above all) goes back to the system once they exit.
      void result.workersExited.then(() => {
        if (!this.#closed) this.#options.logger.debug('freed memory after the sync', { outcome: releaseFreedMemory() });
      });
    const update = { epoch: result.epoch, changedFiles: result.changedFiles, resolvedFiles: result.resolvedFiles };
    if (result.changedFiles.length > 0) {
      this.#options.logger.debug('index updated', {
        epoch: result.epoch,
        changed: result.changedFiles.length,
        resolved: result.resolvedFiles,
      });
      this.emit('updated', update);
    }
    return update;
  }

  isReady(): boolean {
    return this.#ready;
  }

  progress(): IndexProgress {
    return { ...this.#progress };
  }

  epoch(): number {
    return this.#store.epoch();
  }

  languages(): readonly LanguagePack[] {
    return this.#options.languages;
  }

  stats(): IndexStats {
    const count = (table: string) =>
      (this.#store.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const languages: Record<string, number> = {};
    for (const row of this.#store.sqlite
      .prepare(`SELECT language, count(*) AS n FROM files GROUP BY language ORDER BY language`)
      .all() as Array<{ language: string; n: number }>) {
      languages[row.language] = row.n;
    }
    return {
      files: count('files'),
      definitions: count('definitions'),
      references: this.#store.referenceCount(),
      imports: count('imports'),
      skipped: { ...this.#skipped },
      languages,
    };
  }

  parseErrors(): FileParseErrors[] {
    return this.#store.parseErrors();
  }

  files(): IndexedFile[] {
    return this.db
      .select({
        path: filesTable.path,
        language: filesTable.language,
        size: filesTable.size,
        hash: filesTable.hash,
        lines: filesTable.lines,
      })
      .from(filesTable)
      .orderBy(filesTable.path)
      .all();
  }

  definitions(filter: { path?: string; name?: string; kind?: string; qualifiedName?: string } = {}): Definition[] {
    const conditions: SQL[] = [];
    if (filter.path !== undefined) conditions.push(eq(definitionsTable.path, filter.path));
    if (filter.name !== undefined) conditions.push(eq(definitionsTable.name, filter.name));
    if (filter.kind !== undefined) conditions.push(eq(definitionsTable.kind, filter.kind));
    if (filter.qualifiedName !== undefined) conditions.push(eq(definitionsTable.qualifiedName, filter.qualifiedName));
    const query = this.db
      .select()
      .from(definitionsTable)
      .where(conditions.length > 0 ? and(...conditions) : undefined)
      .orderBy(definitionsTable.path, definitionsTable.startLine, definitionsTable.startCol);
    return query.all().map((row) =>
      toDefinition({
        def_uid: row.defUid,
        path: row.path,
        kind: row.kind as Definition['kind'],
        name: row.name,
        qualified_name: row.qualifiedName,
        start_line: row.startLine,
        start_col: row.startCol,
        end_line: row.endLine,
        end_col: row.endCol,
        name_line: row.nameLine,
        name_col: row.nameCol,
        signature: row.signature,
        docstring: row.docstring,
        body_hash: row.bodyHash,
        exported: row.exported,
      }),
    );
  }

  definition(defUid: DefUid): Definition | undefined {
    const row = this.#store.sqlite.prepare(`SELECT * FROM definitions WHERE def_uid = ?`).get(defUid) as
      (Definition & { exported: number }) | undefined;
    return row ? toDefinition(row) : undefined;
  }

  references(filter: { toDefUid?: DefUid; name?: string; path?: string; fromDefUid?: DefUid }): Reference[] {
    return this.#store.references(filter);
  }

  /** A definition's callees and callers through the stored references (`IndexStore.definitionEdges`). */
  definitionEdges(defUid: DefUid, path: string): { callees: DefUid[]; callers: DefUid[] } {
    return this.#store.definitionEdges(defUid, path);
  }

  imports(path: string): ImportEdge[] {
    return this.#store.importsOf(path);
  }

  importers(path: string): ImportEdge[] {
    return (
      this.#store.sqlite
        .prepare(`SELECT * FROM imports WHERE to_path = ? ORDER BY from_path, line, id`)
        .all(path) as ImportRow[]
    ).map(toImportEdge);
  }

  /** The definition graph is large (~117 MB on a 7,600-file tree): kept while calls keep asking for it. */
  #keptDefGraph(): KeptWhileUsed<DirectedGraph> {
    return new KeptWhileUsed(this.#options.graphKeepMs ?? DEFAULT_GRAPH_KEEP_MS, () => collectIfQuiet());
  }

  #cachedGraphs() {
    const epoch = this.epoch();
    if (this.#graphs.epoch !== epoch) {
      this.#graphs.def.clear();
      this.#graphs = { epoch, def: this.#keptDefGraph() };
    }
    return this.#graphs;
  }

  fileGraph(): DirectedGraph {
    const cache = this.#cachedGraphs();
    cache.file ??= buildFileGraph(this.#store);
    return cache.file;
  }

  defGraph(): DirectedGraph {
    const cache = this.#cachedGraphs();
    return cache.def.get(() => buildLean(() => buildDefGraph(this.#store)));
  }

  keptDefGraph(): DirectedGraph | undefined {
    return this.#cachedGraphs().def.peek();
  }

  definitionsChangedAt(epoch: number): DefinitionChange[] {
    return this.#store.changesAt(epoch);
  }

  definitionsChangedSince(epoch: number): DefinitionChange[] {
    const rows = this.#store.sqlite
      .prepare(
        `SELECT epoch, def_uid, path, kind, qualified_name, change, old_body_hash, ` +
          `new_body_hash FROM def_history WHERE epoch > ? ORDER BY epoch, id`,
      )
      .all(epoch) as DefinitionChange[];
    const span = new Map<string, { first: DefinitionChange; last: DefinitionChange }>();
    for (const row of rows) {
      const seen = span.get(row.def_uid);
      if (seen) seen.last = row;
      else span.set(row.def_uid, { first: row, last: row });
    }
    const net = new Map<string, DefinitionChange>();
    for (const [uid, { first, last }] of span) {
      const before = first.old_body_hash;
      const after = last.new_body_hash;
      const change =
        before === null
          ? after === null
            ? null
            : 'added'
          : after === null
            ? 'removed'
            : before === after
              ? null
              : 'modified';
      if (change) net.set(uid, { ...last, change, old_body_hash: before, new_body_hash: after });
    }
    return [...net.values()];
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stopPressure();
    this.#graphs.def.clear();
    await this.#watcher?.close();
    await this.#queue;
    this.#store.close();
  }
}

/**
 * Opens (building or refreshing) the index of the repository at `root`, stored in
 * `<root>/.agentgov/index.db`. Returns at once; `ready` resolves when the first build is committed.
 */
export async function openRepositoryIndex(options: OpenRepositoryIndexOptions): Promise<RepositoryIndex> {
  const root = resolve(options.root);
  // An index of a directory that is not there would be an empty index, made in a directory made for it.
  if (statSync(root, { throwIfNoEntry: false })?.isDirectory() !== true)
    throw new AgentgovError('E_NOT_FOUND', `repository root ${root} is not a directory`, { path: root });
  await excludeIndexDir(root, options.logger);
  const native = nativeParseState();
  if (native.state === 'off')
    options.logger.info('native parse turned off (AGENTGOV_NATIVE_PARSE=0): node-tree-sitter parses');
  else if (native.state === 'unavailable') {
    options.logger.warn('native parse unavailable: files are parsed through node-tree-sitter, the same facts slower', {
      reason: native.reason,
      fix: 'npm rebuild @agentgov/flat-tree',
    });
  }
  const store = IndexStore.open(join(root, INDEX_DIR, INDEX_FILE), options.logger);
  const index = new SqliteRepositoryIndex(root, store, options);
  if (options.watch) await index.startWatching(options.debounceMs ?? DEFAULT_DEBOUNCE_MS);
  return index;
}
