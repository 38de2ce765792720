import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { LanguagePack, Logger } from '@agentgov/core';
import { CompactReferences, packReferences, StringPool } from './compact-references.js';
import { discoverFiles, rediscoverChanged } from './discovery.js';
import { extractFile, languageFor } from './extract-file.js';
import type { ExtractOutcome } from './extract-job.js';
import { defaultWorkerCount, ExtractPool, InThreadExtractor, type Extractor } from './extract-pool.js';
import { ImportResolver } from './resolution/import-resolver.js';
import { ReferenceResolver, type ModuleFacts } from './resolution/reference-resolver.js';
import type { SearchDocuments } from './search-terms.js';
import type { FileWrite, IndexStore, StoredFile } from './store/index-store.js';
import type { Definition, ImportEdge, IndexProgress } from './types.js';

/** Files parsed between event-loop turns: tree-sitter frees native memory only when the loop turns. */
const YIELD_EVERY = 32;
/** Fewer files than this are extracted in-thread: starting worker threads costs more than it saves. */
const POOL_MIN_FILES = 32;

export interface SyncOptions {
  root: string;
  languages: readonly LanguagePack[];
  logger: Logger;
  maxFileBytes?: number;
  exclude?: readonly string[];
  onProgress(progress: IndexProgress): void;
  /**
   * Worker threads for parsing and extraction (default: one per 1,000 files to parse, at most one per
   * available core; 0 = in-thread).
   */
  extractWorkers?: number;
  /** The main thread extracts queued files too while it waits on the workers (default true). */
  extractOnMainThread?: boolean;
  /** Paths the watcher saw change; lets a burst of plain edits skip full discovery. */
  changedPaths?: readonly string[];
  /** Survives between syncs of one index: the last full discovery's config files and skip counts. */
  memo: { configFiles?: string[]; skipped?: Record<string, number> };
}

export interface SyncResult {
  epoch: number;
  /** Added, modified and deleted paths; empty when nothing changed (no epoch was committed). */
  changedFiles: string[];
  skipped: Record<string, number>;
  /** Files whose references were resolved again (the changed files and those their change can affect). */
  resolvedFiles: number;
  /** Settles when the sync's index worker threads (if it started any) have exited. */
  workersExited: Promise<void>;
}

/** Name → number of definitions with that name: unresolved references are kept only for known names. */
export class KnownNames {
  readonly #counts = new Map<string, number>();
  has(name: string): boolean {
    return (this.#counts.get(name) ?? 0) > 0;
  }
  add(name: string, delta: number): void {
    this.#counts.set(name, (this.#counts.get(name) ?? 0) + delta);
  }
}

function sameEdges(a: readonly ImportEdge[], b: readonly ImportEdge[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (edge, i) => edge.specifier === b[i]!.specifier && edge.to_path === b[i]!.to_path && edge.line === b[i]!.line,
    )
  );
}

/** What another file's resolution reads of an edge: all of it but the line it is on. */
function edgeMeaning(edge: ImportEdge): string {
  return JSON.stringify([edge.specifier, edge.kind, edge.to_path, edge.bindings, edge.star]);
}

/**
 * One re-index: discover, re-parse what changed (size/mtime, then content hash), re-resolve
 * imports and the references they can affect, and commit it all as one epoch.
 */
export async function syncIndex(store: IndexStore, knownNames: KnownNames, options: SyncOptions): Promise<SyncResult> {
  try {
    return await sync(store, knownNames, options);
  } catch (error) {
    store.rollback(); // a no-op unless the epoch's transaction is open
    throw error;
  }
}

/** A fresh file between extraction and writing; `search` is dropped once written, `references` once resolved. */
interface FreshFile {
  file: StoredFile;
  facts: FileWrite['facts'];
  search: SearchDocuments | null;
  references: CompactReferences | null;
}

async function sync(store: IndexStore, knownNames: KnownNames, options: SyncOptions): Promise<SyncResult> {
  const { root, languages, logger } = options;
  options.onProgress({ done: 0, total: 0, phase: 'discovering' });
  const stored = store.storedFiles();
  const { memo } = options;
  let discovery =
    options.changedPaths && memo.configFiles && stored.size > 0
      ? await rediscoverChanged(root, languages, stored, options.changedPaths, memo.configFiles, options.maxFileBytes)
      : null;
  const quick = discovery !== null;
  if (!discovery) {
    discovery = await discoverFiles(root, languages, { maxFileBytes: options.maxFileBytes, exclude: options.exclude });
    memo.configFiles = discovery.configFiles;
  }
  const skipped = quick ? { ...(memo.skipped ?? {}) } : { ...discovery.skipped };
  const firstBuild = stored.size === 0;
  const toRead = discovery.candidates.filter((candidate) => {
    const previous = stored.get(candidate.path);
    return !previous || previous.size !== candidate.size || previous.mtimeMs !== candidate.mtimeMs;
  });

  const fresh = new Map<string, FreshFile>();
  const pool = new StringPool();
  const epoch = store.epoch() + 1;
  // A first build writes each file's facts as they arrive, so the writes overlap the parsing; later
  // syncs write after parsing, having read the old definitions of what changed.
  const writeEarly = firstBuild;
  if (writeEarly) store.begin(true);
  const touched: Array<{ path: string; mtimeMs: number }> = [];
  const unindexable = new Set<string>();
  let done = 0;
  let workersExited: Promise<void> = Promise.resolve();
  options.onProgress({ done, total: toRead.length, phase: 'parsing' });
  // Many files: read, parse and extract on worker threads while this thread collects the facts.
  const workers = options.extractWorkers ?? defaultWorkerCount(toRead.length);
  const extractor: Extractor =
    (toRead.length >= POOL_MIN_FILES ? ExtractPool.start(root, languages, workers, logger) : null) ??
    new InThreadExtractor(root, languages);
  try {
    const helps = options.extractOnMainThread ?? true;
    const outcomes: Array<{ promise: Promise<ExtractOutcome>; settled: boolean }> = [];
    const start = (i: number) => {
      if (i >= toRead.length || outcomes[i] !== undefined) return;
      const outstanding = {
        promise: extractor.run({ path: toRead[i]!.path, previousHash: stored.get(toRead[i]!.path)?.hash ?? null }),
        settled: false,
      };
      void outstanding.promise.then(() => (outstanding.settled = true));
      outcomes[i] = outstanding;
    };
    for (let i = 0; i < toRead.length; i++) {
      const candidate = toRead[i]!;
      for (let ahead = i; ahead < i + extractor.concurrency; ahead++) start(ahead);
      const outstanding = outcomes[i]!;
      await Promise.resolve(); // an outcome already in marks itself settled first
      // Rather than wait idle on a worker, extract a queued file here; the loop turns between files
      // so the workers' replies (and their next jobs) are not held up.
      while (helps && !outstanding.settled && extractor.help()) await yieldToLoop();
      const outcome = await outstanding.promise;
      delete outcomes[i];
      if (outcome.status === 'unreadable' || outcome.status === 'binary') {
        skipped[outcome.status] = (skipped[outcome.status] ?? 0) + 1;
        unindexable.add(candidate.path);
      } else if (outcome.status === 'failed') {
        skipped['parse-error'] = (skipped['parse-error'] ?? 0) + 1;
        logger.warn('file could not be parsed; skipped', { path: candidate.path, error: outcome.message });
        unindexable.add(candidate.path);
      } else if (outcome.status === 'unchanged') touched.push({ path: candidate.path, mtimeMs: candidate.mtimeMs });
      else if (outcome.facts) {
        const { references: packed, search, ...facts } = outcome.facts;
        const file = {
          path: candidate.path,
          language: facts.language,
          size: candidate.size,
          mtimeMs: candidate.mtimeMs,
          hash: outcome.hash,
          lines: outcome.lines,
        };
        const entry: FreshFile = { file, facts, search, references: new CompactReferences(packed, pool) };
        if (writeEarly) {
          store.writeFile({ file, facts, search }, epoch, false);
          entry.search = null;
        }
        fresh.set(candidate.path, entry);
      }
      done++;
      if (done % YIELD_EVERY === 0) {
        options.onProgress({ done, total: toRead.length, phase: 'parsing' });
        await yieldToLoop();
      }
    }
  } finally {
    // The workers exit in the background: waiting for their threads to stop (30–50 ms) would only delay the sync.
    workersExited = extractor.close().catch(() => undefined);
  }
  options.onProgress({ done, total: toRead.length, phase: 'resolving' });

  const present = new Set(
    discovery.candidates.map((candidate) => candidate.path).filter((path) => !unindexable.has(path)),
  );
  const deleted = [...stored.keys()].filter((path) => !present.has(path));
  if (fresh.size === 0 && deleted.length === 0) {
    if (writeEarly) store.rollback();
    if (touched.length > 0) store.transaction(() => touched.forEach(({ path, mtimeMs }) => store.touch(path, mtimeMs)));
    options.onProgress({ done, total: toRead.length, phase: 'ready' });
    memo.skipped = skipped;
    return { epoch: store.epoch(), changedFiles: [], skipped, resolvedFiles: 0, workersExited };
  }

  // Imports: fresh files from their facts; the rest re-resolved from stored edges when the file set changed.
  const resolver = new ImportResolver(root, present, discovery.configFiles);
  const moduleSystemOf = (path: string) => languageFor(path, languages)?.moduleSystem ?? 'ecmascript';
  const packOf = (path: string) => languageFor(path, languages);
  const edges = new Map<string, ImportEdge[]>();
  const edgesChanged = new Set<string>();
  for (const [path, { facts }] of fresh) {
    edges.set(path, resolver.resolve(path, packOf(path), facts.imports));
    edgesChanged.add(path);
  }
  const fileSetChanged = deleted.length > 0 || [...fresh.keys()].some((path) => !stored.has(path));
  const oldEdgesOf = new Map<string, ImportEdge[]>();
  if (fileSetChanged && !firstBuild) {
    for (const path of present) {
      if (fresh.has(path)) continue;
      const old = store.importsOf(path);
      oldEdgesOf.set(path, old);
      const again = resolver.resolve(path, packOf(path), old);
      if (!sameEdges(old, again)) {
        edges.set(path, again);
        edgesChanged.add(path);
      }
    }
  }

  // Known names: drop the old definitions of changed and deleted files, add the new ones.
  /**
   * Changed files whose set of definitions (def_uid, exported) differs from the stored one: their package scope
   * re-resolves.
   */
  const definitionsChanged = new Set<string>(deleted);
  const definitionKey = (defs: readonly Definition[]) =>
    defs
      .map((def) => `${def.def_uid}${def.exported ? '+' : '-'}`)
      .sort()
      .join(',');
  for (const path of [...fresh.keys(), ...deleted]) {
    const old = stored.has(path) ? store.definitionsOf(path) : [];
    for (const def of old) knownNames.add(def.name, -1);
    const entry = fresh.get(path);
    if (entry && (!stored.has(path) || definitionKey(old) !== definitionKey(entry.facts.definitions)))
      definitionsChanged.add(path);
  }
  for (const { facts } of fresh.values()) for (const def of facts.definitions) knownNames.add(def.name, 1);

  // What other files' resolution reads of a file: its definitions (uid, so kind and qualified name, and whether
  // exported), its exports and its import edges. A changed file whose three are as stored (an edit inside bodies)
  // changes no other file's resolution: its importers are not re-resolved for it.
  const interfaceChanged = (path: string): boolean => {
    const entry = fresh.get(path);
    if (!entry || !stored.has(path) || definitionsChanged.has(path)) return true;
    const exports = store.moduleExports(path);
    const { localExports, defaultExports } = entry.facts;
    if (
      JSON.stringify([exports.localExports, exports.defaultExports]) !== JSON.stringify([localExports, defaultExports])
    )
      return true;
    const before = store.importsOf(path).map(edgeMeaning);
    const after = (edges.get(path) ?? []).map(edgeMeaning);
    return before.length !== after.length || before.some((edge, i) => edge !== after[i]);
  };

  // References to re-resolve: fresh files, files whose imports changed, and importers of files whose
  // definitions, exports or imports changed (transitively through barrels and __init__ re-exports).
  const toResolve = new Set<string>(firstBuild ? present : [...fresh.keys(), ...edgesChanged]);
  if (!firstBuild) {
    const frontier = [...[...fresh.keys()].filter(interfaceChanged), ...deleted];
    const seen = new Set(frontier);
    while (frontier.length > 0) {
      const target = frontier.pop()!;
      for (const edge of importersOf(store, target, edges)) {
        toResolve.add(edge.from_path);
        const reexports = edge.kind === 'reexport' || edge.star || edge.from_path.endsWith('__init__.py');
        if (reexports && !seen.has(edge.from_path)) {
          seen.add(edge.from_path);
          frontier.push(edge.from_path);
        }
      }
    }
  }
  if (!firstBuild) {
    // A changed file's package scope (the pack's `packageScope`, e.g. a Go package) sees its definitions by
    // bare name: re-resolved when the file's definitions changed (a body edit keeps every def_uid).
    for (const path of definitionsChanged)
      for (const sibling of resolver.packageScope(path, packOf(path))) toResolve.add(sibling);
  }
  for (const path of deleted) toResolve.delete(path);

  const factsOf = (path: string): ModuleFacts | undefined => {
    if (!present.has(path)) return undefined;
    const python = moduleSystemOf(path) === 'python';
    const entry = fresh.get(path);
    if (entry) {
      const { facts } = entry;
      return {
        path,
        python,
        definitions: facts.definitions,
        exports: { localExports: facts.localExports, defaultExports: facts.defaultExports },
        imports: edges.get(path) ?? [],
      };
    }
    return {
      path,
      python,
      definitions: store.definitionsOf(path),
      exports: store.moduleExports(path),
      imports: edges.get(path) ?? oldEdgesOf.get(path) ?? store.importsOf(path),
    };
  };
  const referenceResolver = new ReferenceResolver(
    factsOf,
    (name) => knownNames.has(name),
    (path) => resolver.packageScope(path, packOf(path)),
  );

  // One transaction for the whole epoch, opened across event-loop turns so a large first build
  // never blocks the process; references are resolved and written file by file, never all held.
  options.onProgress({ done, total: toRead.length, phase: 'writing' });
  if (!writeEarly) store.begin(firstBuild);
  try {
    for (const path of deleted) store.deleteFile(path, epoch);
    for (const { path, mtimeMs } of touched) store.touch(path, mtimeMs);
    for (const [path, entry] of fresh) {
      if (entry.search)
        store.writeFile({ file: entry.file, facts: entry.facts, search: entry.search }, epoch, stored.has(path));
      entry.search = null;
    }
    for (const path of edgesChanged) store.replaceImports(path, edges.get(path) ?? []);
    let resolved = 0;
    for (const path of toResolve) {
      const entry = fresh.get(path);
      let raw: CompactReferences | undefined = entry?.references ?? undefined;
      if (!raw) {
        // Unchanged file whose resolution may change: its references are not stored raw, so re-extract.
        const content = await readFile(join(root, path), 'utf8').catch(() => null);
        try {
          const extracted = content === null ? undefined : extractFile(path, content, languages)?.references;
          raw = extracted && new CompactReferences(packReferences(extracted), pool);
        } catch (error) {
          logger.warn('file could not be re-parsed; its references keep their previous resolution', {
            path,
            error: (error as Error).message,
          });
        }
      }
      if (raw) store.replaceReferences(path, referenceResolver.resolveFile(path, raw));
      if (entry) entry.references = null;
      if (++resolved % YIELD_EVERY === 0) await yieldToLoop();
    }
    store.setEpoch(epoch);
    store.commit();
  } catch (error) {
    store.rollback();
    throw error;
  }
  options.onProgress({ done, total: toRead.length, phase: 'ready' });
  memo.skipped = skipped;
  return {
    epoch,
    changedFiles: [...fresh.keys(), ...deleted].sort(),
    skipped,
    resolvedFiles: toResolve.size,
    workersExited,
  };
}

/** Edges pointing at `target`, with this sync's re-resolved edges taking precedence over stored ones. */
function importersOf(store: IndexStore, target: string, edges: Map<string, ImportEdge[]>): ImportEdge[] {
  const rows = store.sqlite.prepare(`SELECT DISTINCT from_path FROM imports WHERE to_path = ?`).all(target) as Array<{
    from_path: string;
  }>;
  const out: ImportEdge[] = [];
  for (const { from_path } of rows)
    if (!edges.has(from_path)) out.push(...store.importsOf(from_path).filter((edge) => edge.to_path === target));
  for (const list of edges.values()) out.push(...list.filter((edge) => edge.to_path === target));
  return out;
}
