/**
 * The language-pack contract, apart from the facts it produces (language.ts) and the refactor
 * engine it may carry (refactor.ts), so that neither of those two imports the other's module back.
 */
import type {
  ExtractedFacts,
  ModuleSystem,
  PackEntryPoint,
  PackModulesContext,
  PackModulesFactory,
} from './language.js';
import type { RefactorEngine } from './refactor.js';

/**
 * A language pack: one tree-sitter grammar and the walker that turns its syntax tree into
 * facts (definitions, references, imports). The server's indexer owns everything that needs
 * more than one file: def_uids, body hashes, import resolution, reference resolution, storage.
 */
export interface LanguagePack {
  name: string;
  /** File extensions including the dot, e.g. `.ts`. */
  extensions: string[];
  /** A tree-sitter `Language` object (from the grammar package). */
  grammar: unknown;
  /**
   * How the indexer resolves this language's import specifiers to files: by its own ECMAScript or
   * Python resolver, or (`'pack'`) by the pack's `modules`.
   */
  moduleSystem: ModuleSystem;
  /**
   * The pack's own import resolution, required when `moduleSystem` is `'pack'`: for languages whose
   * imports name packages, crates or classes rather than files (Go, Rust, Java). Built once per
   * index sync over that sync's file set.
   */
  modules?: PackModulesFactory;
  /**
   * The entry points this language's ecosystem declares or implies (a Cargo binary target, a Go
   * `main` package, a Java `main` class), for `recon_scout`. Reads files only through `context`.
   */
  entryPoints?: (context: PackModulesContext) => PackEntryPoint[];
  /**
   * Paths this language's own convention marks as test code (`*Test.java`, `_test.go`), on top of
   * the conventions every language shares (`test/`, `tests/`): recon ranks them as tests.
   */
  testPath?: RegExp;
  /** Walks a parsed tree-sitter `Tree` of `source` into facts. Pure; never throws on odd syntax. */
  extract(tree: unknown, source: string): ExtractedFacts;
  /**
   * `extract` reads only the part of node-tree-sitter's API that `@agentgov/flat-tree` implements (see its
   * README): the index then parses and walks the file in one native call and hands `extract` a `FlatTree`,
   * which costs a fraction of node-tree-sitter's node-by-node calls. Without it `extract` gets
   * node-tree-sitter's `Tree`.
   */
  flatTree?: boolean;
  /**
   * Where an index worker thread finds this same pack, so large builds parse and extract off the
   * main thread. Without it the pack's files are extracted on the main thread.
   */
  workerModule?: LanguageWorkerModule;
  /**
   * Rename and move for this language (`refactor_rename`, `refactor_move`). Packs of one language
   * family may share one engine. Attached by the plugin entry, never by the module workers import.
   */
  refactor?: RefactorEngine;
}

/** A module a worker thread imports, and the export holding the pack (or an array of packs, matched by `name`). */
export interface LanguageWorkerModule {
  /** A `file:` URL (typically the pack module's own `import.meta.url`) or an absolute path. */
  url: string;
  exportName: string;
}
