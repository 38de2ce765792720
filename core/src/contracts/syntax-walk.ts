import { FrameStack } from './frame-stack.js';
import { childlessNodeTypes } from './language.js';
import type {
  ExtractedDefinition,
  ExtractedFacts,
  ExtractedImport,
  ExtractedReference,
  ReferenceContext,
} from './language.js';
import { LineIndex, tokenSpan } from './source-span.js';

/** What a walker reads of a tree-sitter `TreeCursor` (kept structural: contracts load no native module). */
export interface WalkCursor {
  readonly nodeTypeId: number;
  readonly nodeType: string;
  readonly nodeIsNamed: boolean;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
}

/**
 * The node types a language pack's cursor walk steps into, decided once per type id: a named node
 * that has named children, or a childless one the walker records (identifiers, comments, string
 * contents). Anonymous tokens and other childless leaves (`number`, `true`) read as '' and are
 * skipped. One instance per pack (one grammar); `prepare` reads the grammar on the first tree.
 */
export class WalkedNodeTypes {
  readonly #names: string[] = [];
  readonly #recordedLeaves: ReadonlySet<string>;
  #childless: Set<string> | null = null;

  constructor(recordedLeaves: Iterable<string>) {
    this.#recordedLeaves = new Set(recordedLeaves);
  }

  /** Reads the grammar's childless node types from the first tree walked. */
  prepare(tree: object): void {
    this.#childless ??= childlessNodeTypes((tree as { language: object }).language);
  }

  /** The type of the node the cursor is at, or '' when the walk need not step into it. */
  of(cursor: WalkCursor): string {
    const typeId = cursor.nodeTypeId;
    let type = this.#names[typeId];
    if (type === undefined) {
      const name = cursor.nodeType;
      type = this.#names[typeId] =
        cursor.nodeIsNamed && (this.#recordedLeaves.has(name) || !this.#childless!.has(name)) ? name : '';
    }
    return type;
  }
}

/**
 * Steps the cursor through each child of the node it is at, calls `visit` there, and returns it to
 * the node. `visit` should be one function made once per walker, not a closure per node.
 */
export function visitChildren<C extends WalkCursor>(cursor: C, visit: (cursor: C) => void): void {
  if (!cursor.gotoFirstChild()) return;
  do visit(cursor);
  while (cursor.gotoNextSibling());
  cursor.gotoParent();
}

/**
 * What every match of the usual code-token pattern contains — a call's `(`, `_`, a backtick, a lower-upper pair — for
 * `pushCodeMentions`' `mayMatch` (a pattern with more alternatives needs a clue of its own, as Java's `{@link`).
 */
export const CODE_TOKEN_CLUE = /[(_`]|[a-z][A-Z]/;

/**
 * Code-shaped words of a comment or string (`source` from `startIndex` to `endIndex`) recorded as
 * references of `context` ('comment' or 'string'): rename offers them as `low` mentions and search
 * finds them. `pattern` is the language's global regex of what looks like code (CamelCase,
 * snake_case, a call, a name in one or two backticks, whose ticks are not part of the name);
 * `split` may break one match into several names at offsets relative to the match (Java's
 * `{@link Type#member}`). Each lands in `into` with `enclosing` as its enclosing definition.
 * `mayMatch`, when given, finds something every match of `pattern` contains (`CODE_TOKEN_CLUE` for a
 * call, camelCase, snake_case or a backtick): a text without it is skipped whole, as most prose is (the
 * pattern itself, tried from every offset of a word, is quadratic in the word's length).
 */
export function pushCodeMentions(
  into: ExtractedReference[],
  source: string,
  startIndex: number,
  endIndex: number,
  lines: LineIndex,
  pattern: RegExp,
  context: ReferenceContext,
  enclosing: string | null,
  split?: (match: string) => Array<[offset: number, name: string]> | null,
  mayMatch?: RegExp,
): void {
  const text = source.slice(startIndex, endIndex);
  if (mayMatch && !mayMatch.test(text)) return;
  const push = (offset: number, name: string): void => {
    // from the line index: splitting the text before each word is quadratic in a long docstring
    into.push({
      name,
      context,
      span: tokenSpan(lines.point(startIndex + offset), name.length),
      qualifier: null,
      enclosing,
    });
  };
  pattern.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text)) !== null) {
    const raw = match[0];
    const parts = split?.(raw);
    if (parts) {
      for (const [offset, name] of parts) push(match.index + offset, name);
      continue;
    }
    const ticks = raw.startsWith('``') ? 2 : raw.startsWith('`') ? 1 : 0;
    push(match.index + ticks, ticks > 0 ? raw.slice(ticks, -ticks) : raw);
  }
}

/**
 * The base of a language pack's walker: the source and its line index, the facts it collects, the
 * ancestor frames, and the cursor walk. A subclass writes `visit` (its language's rules at one node,
 * then `this.visitChildren(cursor)`) and a `walk(tree)` that starts it and returns `this.facts()`.
 */
export abstract class SyntaxWalker<C extends WalkCursor = WalkCursor> {
  protected readonly source: string;
  protected readonly lines: LineIndex;
  protected readonly definitions: ExtractedDefinition[] = [];
  protected readonly references: ExtractedReference[] = [];
  protected readonly imports: ExtractedImport[] = [];
  protected readonly frames = new FrameStack();
  /** `visit` made once, so stepping into children allocates no closure per node. */
  readonly #visitChild = (cursor: C): void => this.visit(cursor);

  constructor(source: string) {
    this.source = source;
    this.lines = new LineIndex(source);
  }

  /** The language's rules at the node the cursor is at. */
  protected abstract visit(cursor: C): void;

  /** Visits each child of the node the cursor is at. */
  protected visitChildren(cursor: C): void {
    visitChildren(cursor, this.#visitChild);
  }

  /** Records the code-shaped words of a comment or string: see `pushCodeMentions`. */
  protected mentions(
    startIndex: number,
    endIndex: number,
    pattern: RegExp,
    context: ReferenceContext,
    enclosing: string | null,
    split?: (match: string) => Array<[offset: number, name: string]> | null,
    mayMatch?: RegExp,
  ): void {
    pushCodeMentions(
      this.references,
      this.source,
      startIndex,
      endIndex,
      this.lines,
      pattern,
      context,
      enclosing,
      split,
      mayMatch,
    );
  }

  /** Records a reference to `name`, the token at offset `start` of the source. */
  protected reference(
    name: string,
    start: number,
    context: ReferenceContext,
    qualifier: string | null,
    enclosing: string | null,
  ): void {
    this.references.push({
      name,
      context,
      span: tokenSpan(this.lines.point(start), name.length),
      qualifier,
      enclosing,
    });
  }

  /** What the walk collected. */
  protected facts(): ExtractedFacts {
    return { definitions: this.definitions, references: this.references, imports: this.imports, localExports: [] };
  }
}
