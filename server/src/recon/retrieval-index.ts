import { createHash } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { DirectedGraph } from 'graphology';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { resolveRepoPath } from '../paths/repo-path.js';
import {
  detachedString,
  identifierWords,
  vocabularyWords,
  type FileClass,
  type GraphRelation,
  type RetrievalDefinition,
  type RetrievalIndex,
  type WorkspaceMember,
} from '@agentgov/core';
import { rankOf } from '../graph/graph-algorithms.js';
import { INDEX_DIR, type RepositoryIndex } from '../index/repository-index.js';
import { EXTRACTOR_VERSION } from '../index/store/index-store.js';
import { classifyFiles, generatedMark, workspaceMembersOf } from './file-classes.js';
import { buildLean } from '../memory.js';
import { isPeripheralPath, isTestPath, TEST_VOCABULARY } from './priors.js';

/** Same-file siblings offered per definition at most: enough context, no flooding from huge files. */
const MAX_SIBLINGS = 8;
/**
 * A test word in at least this share of the product files is this repository's product vocabulary
 * (`fixture` in a test framework), not evidence that a task is about tests.
 */
const PRODUCT_WORD_SHARE = 0.2;
/** ... and in at least this many of them, so a tiny repository does not turn every word into product vocabulary. */
const PRODUCT_WORD_MIN_FILES = 3;
/** File texts kept in memory when the index gives no cap (`server.index.text_cache_mb`). */
export const DEFAULT_TEXT_CACHE_CHARS = 64 * 1024 * 1024;
/** Names remembered as known or not when the index gives no cap (`server.index.known_names_max`). */
export const DEFAULT_KNOWN_NAMES = 50_000;
/** Definitions kept as objects once asked for (a recon call asks for a few thousand at most). */
const DEFINITIONS_KEPT = 20_000;
/** Files whose definition lists are kept once asked for. */
const FILES_KEPT = 1_000;
/** The columns the view reads of a stored definition, as `definitionOf` takes them. */
const DEF_COLUMNS_SQL =
  'd.def_uid, p.path, d.kind, d.name, d.qualified_name, d.start_line, d.end_line, d.signature, d.docstring';
const DEF_FROM_SQL = 'FROM def_rows d JOIN paths p ON p.id = d.path_id';
/** Source order within a file; the row id decides between definitions that start at the same place. */
const DEF_ORDER_SQL = 'd.start_line, d.start_col, d.rowid';
type DefRow = [string, string, string, string, string, number, number, string, string | null];

function definitionOf(row: DefRow): RetrievalDefinition {
  return {
    def_uid: row[0],
    path: row[1],
    kind: row[2],
    name: row[3],
    qualified_name: row[4],
    start_line: row[5],
    end_line: row[6],
    signature: row[7] || null,
    docstring: row[8],
  };
}
/** Bumped whenever what `#persisted` writes changes shape. */
const CACHE_FORMAT = 1;
/** A name made of these characters only is known exactly when it is one of the words of some file. */
const WORD = /^[\w$]+$/;

/**
 * The retrievers' view of the repository index, built once per index epoch: definitions by uid,
 * name and file, file texts read lazily, graph neighbours and PageRank from the reference graph.
 */
class RepositoryRetrievalIndex implements RetrievalIndex {
  readonly version: string;
  /**
   * Definitions asked for by uid, name or file, read from the store on demand and kept while used (a miss is kept
   * too): a restarted server's first recon no longer builds an object for each of the repository's definitions.
   */
  readonly #defs = new LRUCache<string, { def: RetrievalDefinition | undefined }>({ max: DEFINITIONS_KEPT });
  /** Each recently asked file's definitions in source order. */
  readonly #inFile = new LRUCache<string, RetrievalDefinition[]>({ max: FILES_KEPT });
  /** Files with at least one stored definition. */
  readonly #defPaths: Set<string>;
  /** The module entries of files without stored definitions, by uid and by name, in file order. */
  readonly #modules = new Map<string, RetrievalDefinition>();
  readonly #modulesByName = new Map<string, RetrievalDefinition[]>();
  readonly #definitionStatements: { byUid: Statement; byName: Statement; byPath: Statement; hasName: Statement };
  readonly cache: { dir: string; key: string; build: <T>(make: () => T) => T };
  /** File texts (undefined: unreadable), at most the cap's characters in all, least recently used dropped first. */
  readonly #texts: LRUCache<string, { text: string | undefined }>;
  readonly #files: string[];
  readonly #fileSet: Set<string>;
  #ranks: Map<string, number> | undefined;
  /** Whether a name is in the code, at most the cap's names, least recently asked forgotten first. */
  readonly #known: LRUCache<string, boolean>;
  #words: Set<string> | undefined;
  #classes: Map<string, FileClass> | undefined;
  #members: WorkspaceMember[] | undefined;
  /** Per peripheral path asked about, whether product code imports it (one SQL lookup each, at most once). */
  readonly #importedByProduct = new Map<string, boolean>();
  #productWords: Set<string> | undefined;
  /** Per lowercase word, how many files have it in their text or path. */
  #vocabulary: Map<string, number> | undefined;
  #referenced: Statement | undefined;
  #importStatements: { imports: Statement; importers: Statement } | undefined;

  constructor(private readonly index: RepositoryIndex) {
    this.version = `${index.root}@${index.epoch()}`;
    const files = index.files();
    this.#files = files.map((f) => f.path);
    this.#fileSet = new Set(this.#files);
    // A text longer than the whole cap is read each time it is asked for, not kept.
    this.#texts = new LRUCache({
      maxSize: Math.max(1, index.textCacheChars ?? DEFAULT_TEXT_CACHE_CHARS),
      sizeCalculation: (entry) => Math.max(1, entry.text?.length ?? 0),
    });
    this.#known = new LRUCache({ max: Math.max(1, index.knownNamesMax ?? DEFAULT_KNOWN_NAMES) });
    const digest = createHash('sha256').update(`${EXTRACTOR_VERSION}\n`);
    for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)))
      digest.update(`${file.path}\0${file.hash}\n`);
    this.cache = {
      dir: join(index.root, INDEX_DIR, 'cache'),
      key: digest.digest('hex').slice(0, 32),
      build: (make) => this.#buildLean(make),
    };
    const sqlite = index.db.$client;
    this.#defPaths = new Set(
      sqlite.prepare(`SELECT path FROM paths WHERE id IN (SELECT path_id FROM def_rows)`).pluck().all() as string[],
    );
    this.#definitionStatements = {
      byUid: sqlite.prepare(`SELECT ${DEF_COLUMNS_SQL} ${DEF_FROM_SQL} WHERE d.def_uid = ?`).raw(),
      byName: sqlite
        .prepare(`SELECT ${DEF_COLUMNS_SQL} ${DEF_FROM_SQL} WHERE d.name = ? ORDER BY p.path, ${DEF_ORDER_SQL}`)
        .raw(),
      byPath: sqlite
        .prepare(
          `SELECT ${DEF_COLUMNS_SQL} ${DEF_FROM_SQL} WHERE d.path_id = (SELECT id FROM paths WHERE path = ?) ` +
            `ORDER BY ${DEF_ORDER_SQL}`,
        )
        .raw(),
      hasName: sqlite.prepare(`SELECT 1 FROM def_rows WHERE name = ? LIMIT 1`).pluck(),
    };
    // A file without definitions is offered as one module entry, after every stored definition.
    for (const file of files) {
      if (this.#defPaths.has(file.path)) continue;
      const name = file.path.slice(file.path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
      const module: RetrievalDefinition = {
        def_uid: `module:${file.path}`,
        path: file.path,
        kind: 'module',
        name,
        qualified_name: file.path,
        start_line: 1,
        end_line: Math.max(1, file.lines),
        signature: null,
        docstring: null,
      };
      this.#modules.set(module.def_uid, module);
      push(this.#modulesByName, name, module);
    }
  }

  /** Every definition: the stored ones by path and source position, then the module entries in file order. */
  *definitions(): Iterable<RetrievalDefinition> {
    // A statement of its own: an iteration inside another one must not find this one busy.
    const rows = this.index.db.$client
      .prepare(`SELECT ${DEF_COLUMNS_SQL} ${DEF_FROM_SQL} ORDER BY p.path, ${DEF_ORDER_SQL}`)
      .raw()
      .iterate() as Iterable<DefRow>;
    // Made afresh, not kept: one pass over all of them must not push out the definitions recent queries use.
    for (const row of rows) yield this.#defs.peek(row[0])?.def ?? definitionOf(row);
    yield* this.#modules.values();
  }
  *definitionNames(): Iterable<Pick<RetrievalDefinition, 'def_uid' | 'name' | 'qualified_name'>> {
    const rows = this.index.db.$client
      .prepare(`SELECT def_uid, name, qualified_name FROM def_rows`)
      .raw()
      .iterate() as Iterable<[string, string, string]>;
    for (const [def_uid, name, qualified_name] of rows) yield { def_uid, name, qualified_name };
    yield* this.#modules.values();
  }
  definition(defUid: string): RetrievalDefinition | undefined {
    const module = this.#modules.get(defUid);
    if (module) return module;
    const kept = this.#defs.get(defUid);
    if (kept) return kept.def;
    const row = this.#definitionStatements.byUid.get(defUid) as DefRow | undefined;
    const def = row ? definitionOf(row) : undefined;
    this.#defs.set(defUid, { def });
    return def;
  }
  definitionsNamed(name: string): RetrievalDefinition[] {
    const stored = (this.#definitionStatements.byName.all(name) as DefRow[]).map((row) => this.#kept(row));
    const modules = this.#modulesByName.get(name);
    return modules ? [...stored, ...modules] : stored;
  }
  definitionsIn(path: string): RetrievalDefinition[] {
    const module = this.#modules.get(`module:${path}`);
    if (module) return [module];
    if (!this.#defPaths.has(path)) return [];
    let defs = this.#inFile.get(path);
    if (!defs) {
      defs = (this.#definitionStatements.byPath.all(path) as DefRow[]).map((row) => this.#kept(row));
      this.#inFile.set(path, defs);
    }
    return defs;
  }

  /** The kept object of a stored definition's row, made and kept when there is none: one object per uid in use. */
  #kept(row: DefRow): RetrievalDefinition {
    const kept = this.#defs.get(row[0])?.def;
    if (kept) return kept;
    const def = definitionOf(row);
    this.#defs.set(row[0], { def });
    return def;
  }

  /** Whether some definition (or a file's module entry) bears this name. */
  #hasDefinitionNamed(name: string): boolean {
    return this.#modulesByName.has(name) || this.#definitionStatements.hasName.get(name) !== undefined;
  }

  files(): string[] {
    return this.#files;
  }
  fileText(path: string, options?: { cache?: boolean }): string | undefined {
    if (options?.cache === false) {
      const kept = this.#texts.peek(path);
      return kept ? kept.text : this.#readText(path);
    }
    const kept = this.#texts.get(path);
    if (kept) return kept.text;
    const text = this.#readText(path);
    this.#texts.set(path, { text });
    return text;
  }

  #readText(path: string): string | undefined {
    if (!this.#fileSet.has(path) && !this.#defPaths.has(path)) return undefined;
    try {
      // Indexed as a regular file, but it may have become a symlink out of the repository since.
      return readFileSync(resolveRepoPath(this.index.root, path).absolute, 'utf8');
    } catch {
      return undefined;
    }
  }

  isKnownName(name: string): boolean {
    let known = this.#known.get(name);
    if (known === undefined) {
      known =
        this.#hasDefinitionNamed(name) ||
        this.#isReferenced(name) ||
        (WORD.test(name)
          ? this.#fileWords().has(name)
          : this.#files.some((path) => containsWord(this.fileText(path) ?? '', name)));
      this.#known.set(name, known);
    }
    return known;
  }

  /**
   * Every word (`[\w$]+` run) of every file, read once and kept with the index's cache: a word-shaped
   * name occurs in a file exactly when it is one of these, without holding every file's text.
   */
  #fileWords(): Set<string> {
    this.#words ??= new Set(this.#persisted('words', () => this.#scanWordLists('words').words));
    return this.#words;
  }

  /**
   * Both word lists of every file's text: `words` (each `[\w$]+` run) and `word-files` (how many files hold each
   * vocabulary word, see wordFileCount). Asked for one, it makes the other in the same pass over the files when that
   * one is neither held nor persisted yet, and persists it at once (not held: it may never be asked for here).
   */
  #scanWordLists(asked: 'words' | 'word-files'): { words: string[]; counts: [string, number][] } {
    const other = asked === 'words' ? 'word-files' : 'words';
    const otherNeeded = (asked === 'words' ? this.#vocabulary : this.#words) === undefined && !this.#isPersisted(other);
    const makeWords = asked === 'words' || otherNeeded;
    const makeCounts = asked === 'word-files' || otherNeeded;
    const words = new Set<string>();
    const counts = new Map<string, number>();
    for (const path of this.#files) {
      const text = this.#readText(path) ?? '';
      // Words and counts are kept as copies, not views into the file's text (detachedString).
      if (makeWords)
        for (const word of text.match(/[\w$]+/g) ?? []) if (!words.has(word)) words.add(detachedString(word));
      if (makeCounts) {
        const vocabulary = vocabularyWords(text);
        for (const part of identifierWords(path)) vocabulary.add(part);
        for (const found of vocabulary) {
          const count = counts.get(found);
          if (count === undefined) counts.set(detachedString(found), 1);
          else counts.set(found, count + 1);
        }
      }
    }
    const lists = { words: [...words], counts: [...counts] };
    if (otherNeeded) this.#persisted(other, () => (asked === 'words' ? lists.counts : lists.words));
    return lists;
  }

  /**
   * A value computed from the indexed content, kept in the cache directory under the content key so
   * that a restarted server reads it back instead of computing it again; stale keys are removed.
   */
  #persisted<T>(name: string, compute: () => T, lean: <U>(make: () => U) => U = (make) => this.#buildLean(make)): T {
    const prefix = `${name}-${CACHE_FORMAT}-`;
    const file = this.#persistedFile(name);
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as T;
    } catch {
      // absent or unreadable: computed and written below
    }
    // Kept as read back from its serialization, as a restarted server holds it: a word matched out of a file's
    // text may be a slice that keeps the whole text alive (every file of the repository, through the word lists).
    const serialized = JSON.stringify(lean(compute));
    const value = JSON.parse(serialized) as T;
    try {
      mkdirSync(this.cache.dir, { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, serialized);
      renameSync(temporary, file);
      for (const entry of readdirSync(this.cache.dir))
        if (entry.startsWith(prefix) && entry !== `${prefix}${this.cache.key}.json` && !entry.endsWith('.tmp'))
          rmSync(join(this.cache.dir, entry), { force: true });
    } catch {
      // a read-only or full disk costs the next restart the computation, nothing else
    }
    return value;
  }

  #persistedFile(name: string): string {
    return join(this.cache.dir, `${name}-${CACHE_FORMAT}-${this.cache.key}.json`);
  }

  /** Whether `#persisted(name)` would read its value back rather than compute it. */
  #isPersisted(name: string): boolean {
    return existsSync(this.#persistedFile(name));
  }

  neighbors(defUid: string): { def_uid: string; relation: GraphRelation }[] {
    const def = this.definition(defUid);
    if (!def) return [];
    const out: { def_uid: string; relation: GraphRelation }[] = [];
    // A file's module entry (`module:<path>`) is no stored definition: no reference names it.
    const { callees, callers } = this.index.definitionEdges(defUid, def.path);
    for (const callee of callees) if (this.definition(callee)) out.push({ def_uid: callee, relation: 'callee' });
    for (const caller of callers) if (this.definition(caller)) out.push({ def_uid: caller, relation: 'caller' });
    const sameFile = this.definitionsIn(def.path);
    const parentName = def.qualified_name.includes('.')
      ? def.qualified_name.slice(0, def.qualified_name.lastIndexOf('.'))
      : null;
    let siblings = 0;
    for (const other of sameFile) {
      if (other.def_uid === defUid) continue;
      if (parentName !== null && other.qualified_name === parentName)
        out.push({ def_uid: other.def_uid, relation: 'parent' });
      else if (
        other.qualified_name.startsWith(`${def.qualified_name}.`) &&
        !other.qualified_name.slice(def.qualified_name.length + 1).includes('.')
      )
        out.push({ def_uid: other.def_uid, relation: 'child' });
      else if (siblings < MAX_SIBLINGS && parentOf(other.qualified_name) === parentName) {
        siblings += 1;
        out.push({ def_uid: other.def_uid, relation: 'sibling' });
      }
    }
    return out;
  }

  /** Whether some stored reference has this name (`ref_name_paths` lists the files that reference it). */
  #isReferenced(name: string): boolean {
    this.#referenced ??= this.index.db.$client.prepare(
      `SELECT 1 FROM ref_name_paths WHERE name_id = (SELECT id FROM ref_names WHERE name = ?) LIMIT 1`,
    );
    return this.#referenced.get(name) !== undefined;
  }

  isTestFile(path: string): boolean {
    return this.index.isLanguageTestFile(path);
  }

  fileClass(path: string): FileClass | undefined {
    if (!this.#classes) {
      // The header marks depend on the indexed content alone, so they are kept with the index's cache (every file is
      // read for them); the rest of the classification reads a few metadata files and is done each time.
      const marks = new Map(
        this.#persisted('generated', () =>
          this.#files.flatMap((p): [string, string][] => {
            const mark = generatedMark(this.#readText(p));
            return mark ? [[p, mark]] : [];
          }),
        ),
      );
      this.#classes = classifyFiles({
        root: this.index.root,
        files: this.#files,
        text: (p) => this.fileText(p),
        generated: (p) => marks.get(p) ?? null,
      });
    }
    return this.#classes.get(path);
  }

  importedByProduct(path: string): boolean {
    let known = this.#importedByProduct.get(path);
    if (known === undefined) {
      known = this.index
        .importers(path)
        .some(
          (edge) =>
            edge.from_path !== path &&
            !isPeripheralPath(edge.from_path) &&
            !isTestPath(edge.from_path) &&
            !this.isTestFile(edge.from_path),
        );
      this.#importedByProduct.set(path, known);
    }
    return known;
  }

  workspaceMembers(): readonly WorkspaceMember[] {
    this.#members ??= workspaceMembersOf(this.index.root, this.#files);
    return this.#members;
  }

  isProductWord(word: string): boolean {
    this.#productWords ??= new Set(this.#persisted('product-words', () => [...this.#computeProductWords()]));
    return this.#productWords.has(word.toLowerCase());
  }

  #computeProductWords(): Set<string> {
    {
      const product = this.#files.filter(
        (p) => !isTestPath(p) && !this.isTestFile(p) && !isPeripheralPath(p) && !this.fileClass(p),
      );
      const counts = new Map<string, number>();
      // A method call (`/re/.test(s)`) is not vocabulary; a word in a name, comment or decorator (`@pytest.fixture`)
      // is.
      const pattern = new RegExp(
        `(?<![\\w$])(${TEST_VOCABULARY.join('|')})(?![\\w$])(?!\\s*\\()|(?<![\\w$.])(` +
          `${TEST_VOCABULARY.join('|')})(?![\\w$])`,
        'gi',
      );
      for (const path of product) {
        const seen = new Set<string>();
        // Read past the text cache: one pass over every product file would fill it with text no query asked for.
        for (const m of (this.#readText(path) ?? '').matchAll(pattern)) seen.add((m[1] ?? m[2] ?? '').toLowerCase());
        for (const w of seen) counts.set(w, (counts.get(w) ?? 0) + 1);
      }
      const needed = Math.max(PRODUCT_WORD_MIN_FILES, product.length * PRODUCT_WORD_SHARE);
      return new Set([...counts].filter(([, n]) => n >= needed).map(([w]) => w));
    }
  }

  isRepositoryWord(word: string): boolean {
    return this.wordFileCount(word) > 0;
  }

  wordFileCount(word: string): number {
    this.#vocabulary ??= new Map(this.#persisted('word-files', () => this.#scanWordLists('word-files').counts));
    return this.#vocabulary.get(word.toLowerCase()) ?? 0;
  }

  /**
   * A file's neighbours in the file import graph (`buildFileGraph`: indexed files, self-imports left out, edges in
   * path order), read from the imports table for the one file instead of building the whole graph on a first recon.
   */
  fileImports(path: string): { imports: string[]; importers: string[] } {
    if (!this.#fileSet.has(path)) return { imports: [], importers: [] };
    const sqlite = this.index.db.$client;
    this.#importStatements ??= {
      imports: sqlite
        .prepare(
          `SELECT DISTINCT to_path FROM imports WHERE from_path = ? AND to_path IS NOT NULL AND to_path != from_path ` +
            `AND to_path IN (SELECT path FROM files) ORDER BY to_path`,
        )
        .pluck(),
      importers: sqlite
        .prepare(
          `SELECT DISTINCT from_path FROM imports WHERE to_path = ? AND from_path != to_path ` +
            `AND from_path IN (SELECT path FROM files) ORDER BY from_path`,
        )
        .pluck(),
    };
    return {
      imports: this.#importStatements.imports.all(path) as string[],
      importers: this.#importStatements.importers.all(path) as string[],
    };
  }

  pagerank(defUid: string): number {
    return this.#rankMap(() => this.index.defGraph()).get(defUid) ?? 1;
  }

  /**
   * The ranks: computed over the whole reference graph once per content and kept with the index's cache (a
   * restarted server reads them back instead of building the graph for them).
   */
  #rankMap(graph: () => DirectedGraph): Map<string, number> {
    this.#ranks ??= new Map(
      this.#persisted(
        'ranks',
        () => {
          // The same computation as recon_scout's top symbols (shared while the index keeps the graph).
          const scores = [...rankOf(graph())];
          const mean = scores.length > 0 ? scores.reduce((s, [, score]) => s + score, 0) / scores.length : 1;
          return scores.map(([node, score]): [string, number] => [node, score / (mean || 1)]);
        },
        buildLean,
      ),
    );
    return this.#ranks;
  }

  /**
   * A one-time build of this view (the lexical store through `cache.build`, each persisted value). While the index
   * holds the definition graph (recon_scout has just used it), the ranks are taken from it first, so that the build
   * may let the graph go (`buildLean` near the memory target) without the ranks building it again later in the same
   * call; a view whose index holds no graph builds nothing more here.
   */
  #buildLean<T>(make: () => T): T {
    if (!this.#ranks) {
      const graph = this.index.keptDefGraph?.();
      if (graph) this.#rankMap(() => graph);
    }
    return buildLean(make);
  }
}

function containsWord(text: string, word: string): boolean {
  let at = text.indexOf(word);
  while (at >= 0) {
    const before = text[at - 1];
    const after = text[at + word.length];
    if (!(before && /[\w$]/.test(before)) && !(after && /[\w$]/.test(after))) return true;
    at = text.indexOf(word, at + 1);
  }
  return false;
}

function parentOf(qualifiedName: string): string | null {
  return qualifiedName.includes('.') ? qualifiedName.slice(0, qualifiedName.lastIndexOf('.')) : null;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const views = new WeakMap<object, RepositoryRetrievalIndex>();

/** The retrieval view of the server's index, rebuilt when the index epoch changes. */
export function retrievalIndexOf(repo: RepositoryIndex): RetrievalIndex {
  const cached = views.get(repo);
  if (cached && cached.version === `${repo.root}@${repo.epoch()}`) return cached;
  const view = new RepositoryRetrievalIndex(repo);
  views.set(repo, view);
  return view;
}
