import type { DefinitionKind, ImportBinding, ImportKind, ReferenceContext, SourceSpan } from './language.js';

/**
 * How sure an edit is: `high` = resolved through scope and imports (or a language service),
 * `medium` = same name but unresolved (a member access on an untyped value), `low` = a mention in
 * a comment, string or docstring.
 */
export type Certainty = 'high' | 'medium' | 'low';
export const CERTAINTIES: readonly Certainty[] = ['high', 'medium', 'low'];

/** One exact replacement in one file: the range (lines 1-based, columns 0-based UTF-16) and its text. */
export interface RefactorEdit {
  path: string;
  span: SourceSpan;
  oldText: string;
  newText: string;
  certainty: Certainty;
}

/** A definition a rename can start from, as an engine found it. */
export interface RefactorSymbol {
  /** Repo-relative path of the declaration. */
  path: string;
  name: string;
  /** Enclosing classes/namespaces plus the name (`Parser.parse`). */
  qualifiedName: string;
  kind: DefinitionKind | string;
  /** Position of the name token. */
  line: number;
  col: number;
  /** Lines of further declarations of the same symbol in the file (overloads, merged declarations). */
  moreLines?: number[];
}

/** The new name is already bound where the renamed binding is visible, or is a member of the same class. */
export interface RenameCollision {
  path: string;
  line: number;
  /** What already holds the name there (`local variable`, `member of Meter`, ...). */
  existing: string;
}

/** The index facts an engine may read; the server adapts its index to this view (same fields). */
export interface RefactorIndexDefinition {
  def_uid: string;
  path: string;
  kind: DefinitionKind;
  name: string;
  qualified_name: string;
  start_line: number;
  end_line: number;
  name_line: number;
  name_col: number;
  exported: boolean;
}

export interface RefactorIndexReference {
  path: string;
  name: string;
  context: ReferenceContext;
  start_line: number;
  start_col: number;
  end_line: number;
  end_col: number;
  qualifier: string | null;
  to_def_uid: string | null;
}

export interface RefactorIndexImport {
  from_path: string;
  specifier: string;
  kind: ImportKind;
  to_path: string | null;
  bindings: ImportBinding[];
  line: number;
}

/**
 * The repository as a refactor engine sees it: the index's files and facts, and each file's
 * current text. Paths are repo-relative with `/` separators.
 */
export interface RefactorWorkspace {
  /** Absolute repository root. */
  readonly root: string;
  /** Every indexed file with its language pack name. */
  files(): Array<{ path: string; language: string }>;
  /** The current text of a file, or undefined when it cannot be read. */
  read(path: string): string | undefined;
  /** Changes whenever the file's content may have changed (a language service's script version). */
  version(path: string): string;
  definitions(filter: { path?: string; name?: string; qualifiedName?: string }): RefactorIndexDefinition[];
  references(filter: { toDefUid?: string; name?: string; path?: string }): RefactorIndexReference[];
  imports(path: string): RefactorIndexImport[];
  importers(path: string): RefactorIndexImport[];
}

export interface RenameRequest {
  symbol: RefactorSymbol;
  newName: string;
  /** Also offer mentions in comments and strings (as `low`). */
  includeComments: boolean;
}

/**
 * A reference to the renamed symbol (or an importer or attribute use of a moved module) that the
 * plan does not edit, and why: the preview lists every one, so nothing is left out silently.
 */
export interface UneditedReference {
  path: string;
  line: number;
  /** 0-based column of the reference, when known. */
  column?: number;
  /** The source line (trimmed), when known. */
  text?: string;
  /** How sure it is that this is a use of the symbol/module (the index's or the engine's certainty). */
  certainty: Certainty;
  /** Why it is not edited, in words a user understands. */
  reason: string;
}

export interface RenamePlan {
  edits: RefactorEdit[];
  collisions: RenameCollision[];
  /** References the engine knows of but does not edit (the server adds those it finds by comparing with the index). */
  unedited?: UneditedReference[];
  /** Hazards the user should read before applying (a name the module also serves dynamically, ...). */
  warnings?: string[];
}

/** One file moving; a directory move lists each of its files. */
export interface FileMove {
  from: string;
  to: string;
}

export interface MoveRequest {
  /** The path the caller named (a file or a directory) and where it goes. */
  from: string;
  to: string;
  /** The files of this engine's languages that move (one entry for a file move). */
  files: FileMove[];
  includeComments: boolean;
}

/** Edits to importers and to the moved files (addressed by their path before the move). */
export interface MovePlan {
  edits: RefactorEdit[];
  /** Importers or attribute uses of the moved modules the engine knows of but does not edit. */
  unedited?: UneditedReference[];
  warnings?: string[];
}

/** A reference found by an engine (the basis for type-aware `recon_impact`). */
export interface EngineReference {
  path: string;
  span: SourceSpan;
  certainty: Certainty;
  isDefinition: boolean;
  /** How the engine knows: a language service's search (the default), or its own typing of the receiver. */
  by?: 'language-service' | 'receiver-type';
}

/**
 * Rename and move for the languages of the language packs that carry it (`LanguagePack.refactor`).
 * One engine may serve several packs (TypeScript, TSX and JavaScript share one). The tool layer
 * never knows which language it talks to: it asks the engine of the file's pack.
 */
export interface RefactorEngine {
  name: string;
  /** Why `name` cannot be an identifier of this language (invalid, keyword), or null when it can. */
  checkIdentifier(name: string): string | null;
  /** Definitions named `name` (bare) or whose qualified name is `name`, in the given files' languages. */
  declarations(name: string, workspace: RefactorWorkspace): Promise<RefactorSymbol[]>;
  rename(request: RenameRequest, workspace: RefactorWorkspace): Promise<RenamePlan>;
  move(request: MoveRequest, workspace: RefactorWorkspace): Promise<MovePlan>;
  /**
   * Every reference to the symbol, definitions included (optional: for impact analysis). A search
   * that runs longer than `options.timeoutMs` stops and the promise rejects with E_DEADLINE_EXCEEDED;
   * loading the engine's project (once, then kept warm) is not counted.
   */
  references?(
    symbol: RefactorSymbol,
    workspace: RefactorWorkspace,
    options?: { timeoutMs?: number },
  ): Promise<EngineReference[]>;
  /**
   * A commit changed these files and made these moves: drop what depends on them (a move changes project membership).
   */
  invalidate?(change: { changed: string[]; moved: FileMove[] }): void;
  /** Releases warm state (language services). */
  dispose?(): void;
}
