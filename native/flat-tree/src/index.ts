import { createRequire } from 'node:module';

/**
 * A tree-sitter parse whose walk happened in native code: the addon (src/flat_tree.c) parses the
 * source and returns every visible node, in the order a cursor visits them, as `STRIDE` int32 fields
 * in one array. `FlatTree`, `FlatNode` and `FlatCursor` read that array through the part of
 * node-tree-sitter's `Tree`, `SyntaxNode` and `TreeCursor` API that language packs use, so a pack's
 * walker runs unchanged on either — but each step here is a read of a typed array, where each step
 * of node-tree-sitter's is a call into the runtime (and each node an object marshalled across).
 * Offsets and columns are UTF-16 code units, as node-tree-sitter's.
 */

const STRIDE = 13;
const SYMBOL = 0;
const FLAGS = 1;
const FIELD = 2;
const START = 3;
const END = 4;
const START_ROW = 5;
const START_COL = 6;
const END_ROW = 7;
const END_COL = 8;
const PARENT = 9;
const NEXT = 10;
const PREV = 11;
const CHILDREN = 12;

const NAMED = 1;
const MISSING = 2;
const EXTRA = 4;
const HAS_ERROR = 8;
const IS_ERROR = 16;

/** tree-sitter's symbol for an ERROR node (`ts_builtin_sym_error`). */
const ERROR_SYMBOL = 0xffff;

interface Binding {
  parse(grammar: object, source: string, scratch?: Int32Array): Int32Array;
  release(nodes: Int32Array): void;
  names(grammar: object): [symbols: string[], fields: string[]];
}

export interface Point {
  row: number;
  column: number;
}

/** A grammar's symbol and field names, read once. */
class Names {
  readonly symbols: string[];
  readonly fields: string[];
  readonly fieldIds = new Map<string, number>();

  constructor(binding: Binding, grammar: object) {
    [this.symbols, this.fields] = binding.names(grammar);
    this.fields.forEach((name, id) => {
      if (id > 0 && !this.fieldIds.has(name)) this.fieldIds.set(name, id);
    });
  }

  symbol(id: number): string {
    return id === ERROR_SYMBOL ? 'ERROR' : (this.symbols[id] ?? '');
  }
}

/** The parse of one source: its nodes' fields in one array; node objects made on demand, one per node. */
export class FlatTree {
  /** The grammar object the source was parsed with, as node-tree-sitter's `tree.language`. */
  readonly language: object;
  readonly #source: string;
  #nodes: Int32Array;
  readonly #names: Names;
  readonly #release: (nodes: Int32Array) => void;
  readonly #objects: Array<FlatNode | undefined> = [];
  #disposed = false;

  constructor(language: object, source: string, nodes: Int32Array, names: Names, release: (nodes: Int32Array) => void) {
    this.language = language;
    this.#source = source;
    this.#nodes = nodes;
    this.#names = names;
    this.#release = release;
  }

  get rootNode(): FlatNode {
    this.#live();
    return this.node(0);
  }

  /** A cursor at the root. */
  walk(): FlatCursor {
    this.#live();
    return new FlatCursor(this, 0);
  }

  /**
   * Gives the tree's memory back now (to the parser for its next tree, or freed), not at a later garbage
   * collection: for a caller done with it. Its nodes and cursors must not be read after (they read nothing);
   * `rootNode` and `walk()` throw.
   */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#objects.length = 0;
    const nodes = this.#nodes;
    this.#nodes = NO_NODES;
    this.#release(nodes);
  }

  #live(): void {
    if (this.#disposed) throw new Error('FlatTree: read after dispose()');
  }

  /** How many nodes the tree holds. */
  get nodeCount(): number {
    return this.#nodes.length / STRIDE;
  }

  /** @internal the node object of node `index` (the same object each time). */
  node(index: number): FlatNode {
    return (this.#objects[index] ??= new FlatNode(this, index));
  }

  /** @internal one int32 field of node `index`. */
  field(index: number, field: number): number {
    return this.#nodes[index * STRIDE + field]!;
  }

  /** @internal */
  typeName(index: number): string {
    return this.#names.symbol(this.#nodes[index * STRIDE + SYMBOL]!);
  }

  /** @internal */
  fieldName(index: number): string | undefined {
    const id = this.#nodes[index * STRIDE + FIELD]!;
    return id === 0 ? undefined : this.#names.fields[id];
  }

  /** @internal */
  fieldId(name: string): number | undefined {
    return this.#names.fieldIds.get(name);
  }

  /** @internal */
  text(index: number): string {
    return this.#source.slice(this.#nodes[index * STRIDE + START], this.#nodes[index * STRIDE + END]);
  }

  /** @internal the first child of node `index`, or -1. */
  firstChild(index: number): number {
    return this.#nodes[index * STRIDE + CHILDREN]! > 0 ? index + 1 : -1;
  }
}

/** One node of a `FlatTree`, read as node-tree-sitter's `SyntaxNode`. */
export class FlatNode {
  readonly tree: FlatTree;
  /** The node's position in the tree's cursor order: unique within the tree. */
  readonly id: number;

  constructor(tree: FlatTree, index: number) {
    this.tree = tree;
    this.id = index;
  }

  get type(): string {
    return this.tree.typeName(this.id);
  }
  get typeId(): number {
    return this.tree.field(this.id, SYMBOL);
  }
  get isNamed(): boolean {
    return (this.tree.field(this.id, FLAGS) & NAMED) !== 0;
  }
  get isMissing(): boolean {
    return (this.tree.field(this.id, FLAGS) & MISSING) !== 0;
  }
  get isExtra(): boolean {
    return (this.tree.field(this.id, FLAGS) & EXTRA) !== 0;
  }
  get hasError(): boolean {
    return (this.tree.field(this.id, FLAGS) & HAS_ERROR) !== 0;
  }
  get isError(): boolean {
    return (this.tree.field(this.id, FLAGS) & IS_ERROR) !== 0;
  }
  get text(): string {
    return this.tree.text(this.id);
  }
  get startIndex(): number {
    return this.tree.field(this.id, START);
  }
  get endIndex(): number {
    return this.tree.field(this.id, END);
  }
  get startPosition(): Point {
    return { row: this.tree.field(this.id, START_ROW), column: this.tree.field(this.id, START_COL) };
  }
  get endPosition(): Point {
    return { row: this.tree.field(this.id, END_ROW), column: this.tree.field(this.id, END_COL) };
  }

  get parent(): FlatNode | null {
    return this.#at(this.tree.field(this.id, PARENT));
  }
  get nextSibling(): FlatNode | null {
    return this.#at(this.tree.field(this.id, NEXT));
  }
  get previousSibling(): FlatNode | null {
    return this.#at(this.tree.field(this.id, PREV));
  }
  get nextNamedSibling(): FlatNode | null {
    return this.#at(this.#named(this.tree.field(this.id, NEXT), NEXT));
  }
  get previousNamedSibling(): FlatNode | null {
    return this.#at(this.#named(this.tree.field(this.id, PREV), PREV));
  }

  get childCount(): number {
    return this.tree.field(this.id, CHILDREN);
  }
  get namedChildCount(): number {
    let count = 0;
    for (let child = this.tree.firstChild(this.id); child >= 0; child = this.tree.field(child, NEXT)) {
      if (this.tree.field(child, FLAGS) & NAMED) count += 1;
    }
    return count;
  }
  get children(): FlatNode[] {
    const children: FlatNode[] = [];
    for (let child = this.tree.firstChild(this.id); child >= 0; child = this.tree.field(child, NEXT)) {
      children.push(this.tree.node(child));
    }
    return children;
  }
  get namedChildren(): FlatNode[] {
    const children: FlatNode[] = [];
    for (let child = this.tree.firstChild(this.id); child >= 0; child = this.tree.field(child, NEXT)) {
      if (this.tree.field(child, FLAGS) & NAMED) children.push(this.tree.node(child));
    }
    return children;
  }
  get firstChild(): FlatNode | null {
    return this.#at(this.tree.firstChild(this.id));
  }
  get lastChild(): FlatNode | null {
    return this.#at(this.#last(false));
  }
  get firstNamedChild(): FlatNode | null {
    return this.#at(this.#named(this.tree.firstChild(this.id), NEXT));
  }
  get lastNamedChild(): FlatNode | null {
    return this.#at(this.#last(true));
  }

  child(index: number): FlatNode | null {
    let child = this.tree.firstChild(this.id);
    for (let k = 0; child >= 0 && k < index; k++) child = this.tree.field(child, NEXT);
    return index >= 0 ? this.#at(child) : null;
  }
  namedChild(index: number): FlatNode | null {
    let child = this.#named(this.tree.firstChild(this.id), NEXT);
    for (let k = 0; child >= 0 && k < index; k++) child = this.#named(this.tree.field(child, NEXT), NEXT);
    return index >= 0 ? this.#at(child) : null;
  }

  /** The first child in field `name`, or null (also when the grammar has no such field). */
  childForFieldName(name: string): FlatNode | null {
    const id = this.tree.fieldId(name);
    if (id === undefined) return null;
    for (let child = this.tree.firstChild(this.id); child >= 0; child = this.tree.field(child, NEXT)) {
      if (this.tree.field(child, FIELD) === id) return this.tree.node(child);
    }
    return null;
  }
  childrenForFieldName(name: string): FlatNode[] {
    const id = this.tree.fieldId(name);
    const children: FlatNode[] = [];
    if (id === undefined) return children;
    for (let child = this.tree.firstChild(this.id); child >= 0; child = this.tree.field(child, NEXT)) {
      if (this.tree.field(child, FIELD) === id) children.push(this.tree.node(child));
    }
    return children;
  }

  /** A cursor at this node; it does not leave the node's subtree. */
  walk(): FlatCursor {
    return new FlatCursor(this.tree, this.id);
  }

  equals(other: FlatNode): boolean {
    return other.tree === this.tree && other.id === this.id;
  }

  #at(index: number): FlatNode | null {
    return index >= 0 ? this.tree.node(index) : null;
  }

  /** `index` or the first named node from it on in direction `step` (NEXT or PREV), or -1. */
  #named(index: number, step: number): number {
    while (index >= 0 && (this.tree.field(index, FLAGS) & NAMED) === 0) index = this.tree.field(index, step);
    return index;
  }

  #last(named: boolean): number {
    let last = -1;
    for (let child = this.tree.firstChild(this.id); child >= 0; child = this.tree.field(child, NEXT)) {
      if (!named || this.tree.field(child, FLAGS) & NAMED) last = child;
    }
    return last;
  }
}

/** A cursor over a `FlatTree`, read as node-tree-sitter's `TreeCursor`; it stays within its start node. */
export class FlatCursor {
  readonly #tree: FlatTree;
  #root: number;
  #index: number;

  constructor(tree: FlatTree, root: number) {
    this.#tree = tree;
    this.#root = root;
    this.#index = root;
  }

  get nodeType(): string {
    return this.#tree.typeName(this.#index);
  }
  get nodeTypeId(): number {
    return this.#tree.field(this.#index, SYMBOL);
  }
  get nodeIsNamed(): boolean {
    return (this.#tree.field(this.#index, FLAGS) & NAMED) !== 0;
  }
  get nodeIsMissing(): boolean {
    return (this.#tree.field(this.#index, FLAGS) & MISSING) !== 0;
  }
  get nodeText(): string {
    return this.#tree.text(this.#index);
  }
  get currentNode(): FlatNode {
    return this.#tree.node(this.#index);
  }
  get currentFieldId(): number {
    return this.#tree.field(this.#index, FIELD);
  }
  get currentFieldName(): string | undefined {
    return this.#tree.fieldName(this.#index);
  }
  get startIndex(): number {
    return this.#tree.field(this.#index, START);
  }
  get endIndex(): number {
    return this.#tree.field(this.#index, END);
  }
  get startPosition(): Point {
    return { row: this.#tree.field(this.#index, START_ROW), column: this.#tree.field(this.#index, START_COL) };
  }
  get endPosition(): Point {
    return { row: this.#tree.field(this.#index, END_ROW), column: this.#tree.field(this.#index, END_COL) };
  }

  gotoFirstChild(): boolean {
    const child = this.#tree.firstChild(this.#index);
    if (child < 0) return false;
    this.#index = child;
    return true;
  }
  gotoNextSibling(): boolean {
    return this.#step(NEXT);
  }
  gotoPreviousSibling(): boolean {
    return this.#step(PREV);
  }
  gotoParent(): boolean {
    if (this.#index === this.#root) return false;
    this.#index = this.#tree.field(this.#index, PARENT);
    return true;
  }

  /** Starts over at `node` (of this cursor's tree). */
  reset(node: FlatNode): void {
    this.#root = this.#index = node.id;
  }

  #step(direction: number): boolean {
    if (this.#index === this.#root) return false;
    const sibling = this.#tree.field(this.#index, direction);
    if (sibling < 0) return false;
    this.#index = sibling;
    return true;
  }
}

const NO_NODES = new Int32Array(0);

/** The largest buffer a parser keeps for its next tree (~320,000 nodes); a larger tree's is freed on dispose. */
const MAX_SCRATCH_BYTES = 16 * 1024 * 1024;

/**
 * Parses sources into `FlatTree`s with the addon; `load()` says whether the addon is there. A disposed tree's
 * buffer is kept for the next tree (the largest up to MAX_SCRATCH_BYTES), so a thread extracting file after
 * file allocates and frees no node memory per file.
 */
export class FlatTreeParser {
  readonly #binding: Binding;
  readonly #names = new WeakMap<object, Names>();
  /** A buffer no tree reads, lent to the next parse. */
  #scratch: Int32Array | null = null;
  readonly #recycle = (nodes: Int32Array): void => {
    const whole = new Int32Array(nodes.buffer);
    if (whole.byteLength > MAX_SCRATCH_BYTES || (this.#scratch && this.#scratch.length >= whole.length)) {
      this.#binding.release(nodes);
      return;
    }
    if (this.#scratch) this.#binding.release(this.#scratch);
    this.#scratch = whole;
  };

  private constructor(binding: Binding) {
    this.#binding = binding;
  }

  /**
   * The parser, or the reason the addon cannot be loaded (not built: `npm rebuild @agentgov/flat-tree`
   * builds it with node-gyp). Loads once per thread.
   */
  static load(): FlatTreeParser | Error {
    if (loaded === undefined) {
      try {
        loaded = new FlatTreeParser(createRequire(import.meta.url)('../../build/Release/flat_tree.node') as Binding);
      } catch (error) {
        loaded = error instanceof Error ? error : new Error(String(error));
      }
    }
    return loaded;
  }

  /** Parses `source` with `grammar` (a tree-sitter grammar module's export, as `Parser#setLanguage` takes). */
  parse(grammar: object, source: string): FlatTree {
    let names = this.#names.get(grammar);
    if (!names) this.#names.set(grammar, (names = new Names(this.#binding, grammar)));
    const scratch = this.#scratch ?? undefined;
    const nodes = this.#binding.parse(grammar, source, scratch);
    // written into the scratch buffer: lent to this tree until it is disposed
    if (scratch && nodes.buffer === scratch.buffer) this.#scratch = null;
    return new FlatTree(grammar, source, nodes, names, this.#recycle);
  }
}

let loaded: FlatTreeParser | Error | undefined;
