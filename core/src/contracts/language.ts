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

/** An entry point a language pack found: a program (`bin`) or a file with a main function (`main`). */
export interface PackEntryPoint {
  /** Repository-relative path of the entry file. */
  path: string;
  kind: 'bin' | 'main';
  /** The program's name (a Cargo binary, a Go command), when it has one. */
  name: string | null;
  /** The manifest that declares it (`Cargo.toml`), or the file itself. */
  declared_in: string;
}

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

/**
 * Kinds whose members are reached through the definition (`Owner.member`, `this.member`): a Java
 * interface's constants and an enum's constants and methods too (`Color.RED`).
 */
export const MEMBER_OWNER_KINDS: ReadonlySet<DefinitionKind> = new Set<DefinitionKind>([
  'class',
  'struct',
  'trait',
  'interface',
  'enum',
]);

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
  /**
   * Name exported by the target module (`default` for default imports, `*` for namespaces), or a
   * member of it by qualified name (`Util.helper`: a Java static import, `Outer.Inner`).
   */
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
  /**
   * An import the language makes without a statement (Java: a type of the file's own package used
   * by its simple name). `line` is its first use. Kept only when the pack resolves it to a file; an
   * unresolved implicit import is no external import, just nothing.
   */
  implicit?: boolean;
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
