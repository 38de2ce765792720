/** The parsed task given to every retriever. */
export interface RetrievalQuery {
  task: string;
  /** Plain lower-case words of the task, stop words removed, in order of first appearance. */
  terms: string[];
  /** Code-shaped tokens of the task (camelCase, snake_case, dotted, `call()`), as written. */
  identifiers: string[];
  /** Path-shaped tokens of the task (contain `/` or end in a source extension), as written. */
  paths: string[];
  /** Text between quotes or backticks. */
  quoted: string[];
  seeds: string[];
  pins: string[];
}

/** A raw scored candidate: one definition, one retriever's opinion. Higher scores are better. */
export interface RetrieverCandidate {
  def_uid: string;
  score: number;
  /** Short explanation, e.g. the matched term. */
  why?: string;
  /** True when the candidate comes from something the caller named (seed, pin, path, existing identifier). */
  explicit?: boolean;
}

/**
 * One definition as retrievers see it. Lines are 1-based, inclusive. A file without definitions is
 * represented by one definition of kind `module` spanning the whole file, so it can still be found.
 */
export interface RetrievalDefinition {
  def_uid: string;
  path: string;
  kind: string;
  name: string;
  qualified_name: string;
  start_line: number;
  end_line: number;
  signature: string | null;
  docstring: string | null;
}

/** How two definitions are related in the reference, import and containment graphs. */
export type GraphRelation = 'caller' | 'callee' | 'sibling' | 'importer' | 'imported' | 'parent' | 'child';

/**
 * The read-only view of the repository index that retrievers use. The server adapts its index to
 * it, so a retriever plugin depends on core only.
 */
export interface RetrievalIndex {
  /** Changes whenever the index content changes (the index epoch); retrievers key caches on it. */
  readonly version: string;
  definitions(): Iterable<RetrievalDefinition>;
  /**
   * Every definition's uid, name and qualified name, in no particular order: what a retriever that scores names
   * needs, without the rest of each definition. Absent: read them from `definitions()`.
   */
  definitionNames?(): Iterable<Pick<RetrievalDefinition, 'def_uid' | 'name' | 'qualified_name'>>;
  definition(defUid: string): RetrievalDefinition | undefined;
  /** Definitions whose `name` equals `name` exactly. */
  definitionsNamed(name: string): RetrievalDefinition[];
  /** Definitions of one file, in source order; empty for unknown files. */
  definitionsIn(path: string): RetrievalDefinition[];
  /** Repository-relative paths of every indexed file. */
  files(): string[];
  /**
   * The indexed text of a file, or undefined when it is not indexed. `{ cache: false }` reads it past the
   * index's text cache: for one pass over every file, which would otherwise fill the cache with text no
   * query asked for.
   */
  fileText(path: string, options?: { cache?: boolean }): string | undefined;
  /** Related definitions of a definition. */
  neighbors(defUid: string): { def_uid: string; relation: GraphRelation }[];
  /** True when the name occurs in the code at all: as a definition, a reference, or a word of a file. */
  isKnownName(name: string): boolean;
  /** PageRank of a definition in the reference graph, normalised so the mean is 1. */
  pagerank(defUid: string): number;
  /** Vendored or generated code, recognised from the repository itself; undefined for the repository's own code. */
  fileClass?(path: string): FileClass | undefined;
  /** True when the file's language marks it as test code by its own convention (`LanguagePack.testPath`). */
  isTestFile?(path: string): boolean;
  /** The repository's own workspace members (a monorepo's packages, crates, modules); empty when it declares none. */
  workspaceMembers?(): readonly WorkspaceMember[];
  /**
   * True when a file that is neither test code nor in a peripheral folder imports `path`: code the product is built
   * from, wherever its folder (Rust's `mod doc;` in `flags/`), not an example or a document.
   */
  importedByProduct?(path: string): boolean;
  /** True when `word` is frequent in this repository's product code (not tests, examples or vendored code). */
  isProductWord?(word: string): boolean;
  /**
   * True when the lowercase `word` occurs in the repository, case-insensitively: as a word of a file or
   * path, or as a part of an identifier (`literal` in `ZodLiteral`).
   */
  isRepositoryWord?(word: string): boolean;
  /** How many indexed files have the lowercase `word` (in their text or path, as `isRepositoryWord`); 0 when none. */
  wordFileCount?(word: string): number;
  /** Files this file imports (`imports`) and files importing it (`importers`), from the import graph. */
  fileImports?(path: string): { imports: string[]; importers: string[] };
  /**
   * Where a retriever may keep what it builds from this index so that a restarted server finds it
   * again: `dir` lies inside the repository's index directory (created on demand by the retriever),
   * `key` is a digest of the indexed content (every file's content hash and the extractor version),
   * equal across restarts exactly when that content is. Name files after `key` and your own format
   * version; remove your stale ones. Absent: keep caches in memory. `build`, when the host gives it, is how a
   * retriever runs the one-time work of filling such a cache (every file read, every definition tokenized): the host
   * bounds the memory that work's garbage takes (the server collects more often while it runs).
   */
  readonly cache?: { dir: string; key: string; build?<T>(make: () => T): T };
}

/** Why a file is not the repository's own hand-written code. */
export interface FileClass {
  kind: 'vendored' | 'generated';
  /** What says so, e.g. `own package metadata: lib/packages/six/LICENSE` or `header: @generated`. */
  reason: string;
  /** The vendored package's directory name (`six`), which a task naming it explicitly may use. */
  name?: string;
}

/** One member of the repository's workspace, as its root manifest declares it. */
export interface WorkspaceMember {
  /** Its directory, repository-relative (`packages/runtime-dom`). */
  dir: string;
  /**
   * The lowercase names a task may call it by: the directory's name and the name its own manifest gives
   * (`@vue/runtime-dom` and `runtime-dom`, a crate's `[package] name`).
   */
  names: string[];
}

export interface RetrievalContext {
  /** The code index the retriever reads. */
  index: RetrievalIndex;
  /** Candidates produced by earlier retriever phases (expansion retrievers only). */
  prior?: ReadonlyMap<string, ReadonlyMap<string, RetrieverCandidate>>;
}

/**
 * A retriever returns raw scored candidates per definition and knows nothing of other retrievers.
 * `phase: 'expand'` retrievers run after the primary ones and receive their pool in `prior`.
 */
export interface Retriever {
  name: string;
  phase?: 'primary' | 'expand';
  retrieve(query: RetrievalQuery, context: RetrievalContext): Promise<RetrieverCandidate[]>;
}

/** The pool being filled during retrieval: retriever name → def_uid → candidate. */
export type CandidatePool = Map<string, Map<string, RetrieverCandidate>>;
