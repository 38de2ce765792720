import type {
  Certainty,
  RefactorEdit,
  RefactorIndexDefinition,
  RefactorIndexReference,
  RefactorSymbol,
  RefactorWorkspace,
  UneditedReference,
} from './refactor.js';

/** The symbol a rename starts from, as the index recorded its definition. */
export function indexSymbol(d: RefactorIndexDefinition): RefactorSymbol {
  return {
    path: d.path,
    name: d.name,
    qualifiedName: d.qualified_name,
    kind: d.kind,
    line: d.name_line,
    col: d.name_col,
  };
}

/** Definitions as rename symbols, one per file and qualified name: overloads add their lines to `moreLines`. */
export function overloadedSymbols(defs: RefactorIndexDefinition[]): RefactorSymbol[] {
  const symbols = new Map<string, RefactorSymbol>();
  for (const d of defs) {
    const key = `${d.path}\0${d.qualified_name}`;
    const first = symbols.get(key);
    if (first) (first.moreLines ??= []).push(d.name_line);
    else symbols.set(key, indexSymbol(d));
  }
  return [...symbols.values()];
}

const RANK: Record<Certainty, number> = { high: 0, medium: 1, low: 2 };

/**
 * One edit per position (path, line, column). `keep: 'first'` keeps the edit found first (engines
 * add code edits before mentions); `'surest'` keeps the most certain one wherever it was found.
 */
export function distinctEdits(edits: RefactorEdit[], keep: 'first' | 'surest' = 'first'): RefactorEdit[] {
  const seen = new Map<string, RefactorEdit>();
  for (const edit of edits) {
    const key = `${edit.path}\0${edit.span.startLine}\0${edit.span.startCol}`;
    const first = seen.get(key);
    if (!first || (keep === 'surest' && RANK[edit.certainty] < RANK[first.certainty])) seen.set(key, edit);
  }
  return [...seen.values()];
}

export interface RenameEditsOptions {
  /**
   * Where the index's span no longer holds the old name (the file changed since it was indexed):
   * `'drop'` leaves the place out, `'unedited'` lists it in `unedited` with that reason.
   */
  stale?: 'drop' | 'unedited';
  /** The replacement at one place, from its source line (Rust's shorthand field `S { name }`). */
  newTextAt?: (lineText: string, col: number) => string;
}

/**
 * The edits of an index-driven rename, with the certainty contract every language engine keeps:
 * the declaration and every reference the index resolved to it are `high`; a same-name use the
 * index could not resolve (a member of a value it cannot type) is `medium`; a mention in a comment
 * or string is `low`. Each place is checked against the file's current text first: the index may
 * lag a file edited seconds ago, and a span that no longer holds the name is never edited.
 */
export class RenameEdits {
  readonly edits: RefactorEdit[] = [];
  readonly unedited: UneditedReference[] = [];
  readonly #name: string;
  readonly #newName: string;
  readonly #workspace: Pick<RefactorWorkspace, 'read'>;
  readonly #options: RenameEditsOptions;
  readonly #texts = new Map<string, string[] | undefined>();

  constructor(
    symbol: Pick<RefactorSymbol, 'name'>,
    newName: string,
    workspace: Pick<RefactorWorkspace, 'read'>,
    options: RenameEditsOptions = {},
  ) {
    this.#name = symbol.name;
    this.#newName = newName;
    this.#workspace = workspace;
    this.#options = options;
  }

  /** Line `line` (1-based) of a file's current text; each file is read once. */
  lineOf(path: string, line: number): string | undefined {
    if (!this.#texts.has(path)) this.#texts.set(path, this.#workspace.read(path)?.split('\n'));
    return this.#texts.get(path)?.[line - 1];
  }

  /** Replaces the old name at (line, col) of `path`, when the file still has it there. */
  add(path: string, line: number, col: number, certainty: Certainty): void {
    const text = this.lineOf(path, line);
    const name = this.#name;
    if (text?.slice(col, col + name.length) !== name) {
      if (this.#options.stale === 'unedited')
        this.unedited.push({ path, line, column: col, certainty, reason: 'the file changed since it was indexed' });
      return;
    }
    this.edits.push({
      path,
      span: { startLine: line, startCol: col, endLine: line, endCol: col + name.length },
      oldText: name,
      newText: this.#options.newTextAt ? this.#options.newTextAt(text, col) : this.#newName,
      certainty,
    });
  }

  /**
   * Adds every code reference the index resolved to one of `declared` (`high`) and returns all the
   * resolved references (comments and strings among them, which are not edited here).
   */
  addResolved(
    declared: RefactorIndexDefinition[],
    workspace: Pick<RefactorWorkspace, 'references'>,
  ): RefactorIndexReference[] {
    const resolved = declared.flatMap((d) => workspace.references({ toDefUid: d.def_uid }));
    for (const ref of resolved)
      if (ref.name === this.#name && ref.context !== 'comment' && ref.context !== 'string')
        this.add(ref.path, ref.start_line, ref.start_col, 'high');
    return resolved;
  }

  /**
   * The files of the workspace `path` matches whose text has the old name, for an engine to find
   * its comment and string mentions in (`low`).
   */
  *filesMentioning(
    workspace: Pick<RefactorWorkspace, 'files' | 'read'>,
    path: RegExp,
  ): Generator<{ path: string; text: string }> {
    for (const file of workspace.files()) {
      if (!path.test(file.path)) continue;
      const text = workspace.read(file.path);
      if (text?.includes(this.#name)) yield { path: file.path, text };
    }
  }
}
