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
  /** Walks a parsed tree-sitter `Tree` of `source` into facts. Pure; never throws on odd syntax. */
  extract(tree: unknown, source: string): ExtractedFacts;
  /**
   * Where an index worker thread finds this same pack, so large builds parse and extract off the
   * main thread. Without it the pack's files are extracted on the main thread.
   */
  workerModule?: LanguageWorkerModule;
  /**
   * Whether a file is a program's entry point by this language's convention (a Go `package main`
   * with `func main`, a Rust `fn main`, a Java `public static void main`): `recon_scout` lists it
   * as kind `main-function` under the returned name (or none). Reads only `source`.
   */
  entryPoint?(path: string, source: string): { name: string | null } | null;
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

export type ModuleSystem = 'ecmascript' | 'python' | 'pack';

/** What a pack's module resolver may look at: the indexed files, and small repository files by path. */
export interface PackModulesContext {
  /** Absolute repository root. */
  root: string;
  /** Every indexed file of this sync, repository-relative POSIX paths. */
  files: ReadonlySet<string>;
  /**
   * Reads a repository file (`go.mod`, `Cargo.toml`, `pom.xml`, …) by repository-relative path;
   * null when it is missing, unreadable or outside the repository.
   */
  readText(path: string): string | null;
}

/** A pack's import resolution over one snapshot of the repository. */
export interface PackModules {
  /**
   * The repository files an import statement of `fromPath` names: one file, or every file of a
   * package (a Go package directory); empty when the import is external (standard library, a
   * dependency) or cannot be resolved. Never throws.
   */
  resolve(fromPath: string, specifier: string): string[];
  /**
   * The files whose top-level definitions `fromPath` sees by bare name without any import (the
   * other files of a Go package, the classes of a Java package). Reference resolution looks there
   * after the file's own top level; no import edge is drawn, so siblings form no import cycle.
   */
  packageScope?(fromPath: string): string[];
}

export type PackModulesFactory = (context: PackModulesContext) => PackModules;

/**
 * What a definition is. `struct` (Go, Rust, C-like records), `trait` (Rust), `module` (a Rust `mod`,
 * a Go or Java package), `field`, `constructor` and `macro` (Rust, by name) serve the languages whose
 * vocabulary the first eight do not cover.
 */
export const DEFINITION_KINDS = [
  'function',
  'class',
  'method',
  'interface',
  'type',
  'enum',
  'variable',
  'constant',
  'struct',
  'trait',
  'module',
  'field',
  'constructor',
  'macro',
] as const;
export type DefinitionKind = (typeof DEFINITION_KINDS)[number];

/** Kinds whose members are reached through the definition (`Owner.member`, `this.member`). */
export const MEMBER_OWNER_KINDS: ReadonlySet<DefinitionKind> = new Set<DefinitionKind>(['class', 'struct', 'trait']);

/**
 * Where a reference occurs. `value` is a plain identifier use (read, write, argument);
 * `comment`/`string` are mentions inside comments and string literals (low certainty).
 */
export const REFERENCE_CONTEXTS = ['call', 'import', 'type', 'member', 'value', 'comment', 'string'] as const;
export type ReferenceContext = (typeof REFERENCE_CONTEXTS)[number];

/** Lines are 1-based; columns are 0-based UTF-16 code units (the editor/LSP convention). */
export interface SourceSpan {
  startLine: number;
  startCol: number;
  endLine: number;
  endCol: number;
}

export interface ExtractedDefinition {
  kind: DefinitionKind;
  name: string;
  /** Dotted path of enclosing classes/namespaces plus the name, e.g. `Parser.parse`. */
  qualifiedName: string;
  span: SourceSpan;
  /** Span of the name token alone (what a rename edits). */
  nameSpan: SourceSpan;
  /** The declaration head up to its body, whitespace collapsed. */
  signature: string;
  docstring: string | null;
  /** Source text of the whole definition; the indexer hashes it. */
  text: string;
  /** Visible to other modules: `export`ed (ES) or top-level public (Python). */
  exported: boolean;
  /** `export default` declaration (ES only). */
  isDefault: boolean;
  /** Identifiers used inside the body, for lexical search documents. */
  bodyIdentifiers: string[];
}

export interface ExtractedReference {
  name: string;
  context: ReferenceContext;
  span: SourceSpan;
  /** For member access `a.b.c` → name `c`, qualifier `a.b`; `this`/`self` kept verbatim. */
  qualifier: string | null;
  /** Qualified name of the innermost enclosing definition, or null at module level. */
  enclosing: string | null;
}

export interface ImportBinding {
  /** Name exported by the target module (`default` for default imports, `*` for namespaces). */
  imported: string;
  /** Local binding name (null when nothing is bound, e.g. `export { x } from`). */
  local: string | null;
}

/**
 * How an import is written, which decides when its target loads. `python` is a Python import that
 * runs when the module loads; `type-only` is followed by type checkers alone (Python under
 * `if TYPE_CHECKING:`); `deferred` runs when its enclosing function runs (a Python import inside a
 * function body), as `dynamic` (`import()`) runs when reached.
 */
export type ImportKind = 'import' | 'reexport' | 'require' | 'dynamic' | 'python' | 'type-only' | 'deferred';

/** Import kinds whose target does not load with the importing module: they close no load-time import cycle. */
export const NOT_LOADED_IMPORT_KINDS: ReadonlySet<ImportKind> = new Set<ImportKind>([
  'type-only',
  'deferred',
  'dynamic',
]);

export interface ExtractedImport {
  /** The specifier as written (`./a`, `@/x`, `..pkg.mod`, `os.path`). */
  specifier: string;
  kind: ImportKind;
  bindings: ImportBinding[];
  /** `export * from` / `from x import *`: every export of the target is visible here. */
  star: boolean;
  /** Names re-exported under which name (`export { a as b } from`): binding.local is the exported name. */
  line: number;
}

export interface ExtractedFacts {
  definitions: ExtractedDefinition[];
  references: ExtractedReference[];
  imports: ExtractedImport[];
  /** Local names this module re-exports from its own scope (`export { a as b }`): exported → local. */
  localExports: Array<{ exported: string; local: string }>;
}

/**
 * Named node types of a tree-sitter grammar that never have named children (node-types.json: no
 * fields, no children, no subtypes), such as `number` or `this`. A cursor-driven walker need not
 * step into them. `grammar` is the grammar object a language pack passes to tree-sitter; one
 * without `nodeTypeInfo` yields an empty set.
 */
export function childlessNodeTypes(grammar: object): Set<string> {
  const info =
    (
      grammar as {
        nodeTypeInfo?: Array<{ type: string; named: boolean; fields?: object; children?: object; subtypes?: object }>;
      }
    ).nodeTypeInfo ?? [];
  return new Set(
    info
      .filter(
        (entry) => entry.named && !entry.children && !entry.subtypes && Object.keys(entry.fields ?? {}).length === 0,
      )
      .map((entry) => entry.type),
  );
}
