import type { DefinitionKind, ImportBinding, ImportKind, ReferenceContext } from '@agentgov/core';

/** A stable id of a definition: the same for an unchanged definition across re-indexing. */
export type DefUid = string;

export interface IndexedFile {
  /** Repo-relative, posix separators. */
  path: string;
  language: string;
  size: number;
  /** sha1 of the content, hex. */
  hash: string;
  lines: number;
}

/** Lines are 1-based; columns 0-based UTF-16 code units. */
export interface Definition {
  def_uid: DefUid;
  path: string;
  kind: DefinitionKind;
  name: string;
  qualified_name: string;
  start_line: number;
  start_col: number;
  end_line: number;
  end_col: number;
  /** Position of the name token (what a rename edits). */
  name_line: number;
  name_col: number;
  signature: string;
  docstring: string | null;
  body_hash: string;
  exported: boolean;
}

export interface Reference {
  path: string;
  name: string;
  context: ReferenceContext;
  start_line: number;
  start_col: number;
  end_line: number;
  end_col: number;
  /** `a.b` in `a.b.name`, `this`/`self` verbatim; null for a bare name. */
  qualifier: string | null;
  /** The definition the reference sits in; null at module level. */
  from_def_uid: DefUid | null;
  /** The definition it refers to, when scope or imports resolve it; null otherwise. */
  to_def_uid: DefUid | null;
}

export interface ImportEdge {
  from_path: string;
  specifier: string;
  kind: ImportKind;
  /** The repository file the specifier resolves to; null for external or unresolvable modules. */
  to_path: string | null;
  /** Names imported (`default`, `*` for a namespace). */
  names: string[];
  bindings: ImportBinding[];
  star: boolean;
  line: number;
}

export type DefinitionChangeKind = 'added' | 'modified' | 'removed';

/** One definition's change committed at one epoch. */
export interface DefinitionChange {
  epoch: number;
  def_uid: DefUid;
  path: string;
  kind: DefinitionKind;
  qualified_name: string;
  change: DefinitionChangeKind;
  old_body_hash: string | null;
  new_body_hash: string | null;
}

export interface IndexProgress {
  done: number;
  total: number;
  phase: 'discovering' | 'parsing' | 'resolving' | 'writing' | 'ready';
}

export interface IndexStats {
  files: number;
  definitions: number;
  references: number;
  imports: number;
  /** Files not indexed, by reason (`binary`, `too-large`, `unreadable`, `parse-error`). */
  skipped: Record<string, number>;
  /** Indexed files per language. */
  languages: Record<string, number>;
}
