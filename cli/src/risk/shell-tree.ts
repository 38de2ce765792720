import type Parser from 'tree-sitter';
import { READ_LIMITS, type ReadBudget } from './budget.js';

/**
 * A tree-sitter tree copied into plain objects in one TreeCursor walk. Reading a tree through the
 * Node binding's SyntaxNode API costs a native call plus a node unmarshalling per `namedChildren`,
 * `childForFieldName`, `.type` or `.text`; the cursor reads each node once, with numbers (type and
 * field ids) instead of strings, so the walk costs a handful of native calls per node.
 *
 * The copy holds what the shell collector reads, and no more: every named node; anonymous nodes
 * (operators, keywords, quotes) only under the parent types listed in `keepAnonymousUnder`;
 * field names only under the parent types listed in `fieldsUnder`. The shell-tree test checks the
 * copy against tree-sitter's own node API over the risk bench's whole command set.
 */
export interface ShellTreeOptions {
  keepAnonymousUnder: ReadonlySet<string>;
  fieldsUnder: ReadonlySet<string>;
}

/** The children of every leaf (shared: nobody adds to a list they are given). */
const NO_CHILDREN: readonly ShellNode[] = Object.freeze([]);

export class ShellNode {
  children: readonly ShellNode[] = NO_CHILDREN;
  /** Whether an anonymous child was kept (else the named children are all the children). */
  private anonymous = false;
  private named?: readonly ShellNode[];

  constructor(
    private readonly source: string,
    readonly type: string,
    readonly isNamed: boolean,
    readonly startIndex: number,
    readonly endIndex: number,
    /** The field this node fills in its parent (null when none, or when its parent's fields are not read). */
    readonly field: string | null,
  ) {}

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }

  get namedChildren(): readonly ShellNode[] {
    if (!this.anonymous) return this.children;
    return (this.named ??= this.children.filter((c) => c.isNamed));
  }

  /** Adds a child while the tree is copied. */
  add(child: ShellNode): void {
    if (this.children === NO_CHILDREN) this.children = [child];
    else (this.children as ShellNode[]).push(child);
    if (!child.isNamed) this.anonymous = true;
  }

  childForFieldName(name: string): ShellNode | null {
    return this.children.find((c) => c.field === name) ?? null;
  }

  childrenForFieldName(name: string): ShellNode[] {
    return this.children.filter((c) => c.field === name);
  }
}

/** Per grammar, learned as the walks meet them: type and field names by id, and which types are named. */
const typeNames: string[] = [];
const typeNamed: boolean[] = [];
const fieldNames: string[] = [];

/**
 * Copies the tree under `rootNode` (parsed from `source`) into plain nodes; see the interface comment for what is kept.
 */
/**
 * With a budget, the copy stops once the budget's nodes are spent (noted in the budget): the
 * collector then reads the commands copied so far.
 */
export function shellTree(
  rootNode: Parser.SyntaxNode,
  source: string,
  options: ShellTreeOptions,
  budget?: ReadBudget,
): ShellNode {
  const cursor = rootNode.walk();
  const read = (parentType: string | null): ShellNode | null => {
    const id = cursor.nodeTypeId;
    let type = typeNames[id];
    if (type === undefined) {
      type = typeNames[id] = cursor.nodeType;
      typeNamed[id] = cursor.nodeIsNamed;
    }
    const named = typeNamed[id] as boolean;
    if (!named && (parentType === null || !options.keepAnonymousUnder.has(parentType))) return null;
    let field: string | null = null;
    if (parentType !== null && options.fieldsUnder.has(parentType)) {
      const fieldId = cursor.currentFieldId;
      if (fieldId) field = fieldNames[fieldId] ??= cursor.currentFieldName;
    }
    return new ShellNode(source, type, named, cursor.startIndex, cursor.endIndex, field);
  };
  const root = read(null) as ShellNode;
  // Depth-first; the stack holds the copied ancestors of the cursor's node (null: a skipped node).
  const stack: Array<ShellNode | null> = [root];
  let descend = true;
  for (;;) {
    if (budget !== undefined && (budget.nodesLeft -= 1) < 0) {
      budget.stop('nodes', `more than ${READ_LIMITS.nodes} syntax nodes: the rest was not read`);
      break;
    }
    const current = stack[stack.length - 1];
    // Anonymous nodes are leaves for the collector: their children are never read.
    if (descend && current?.isNamed && cursor.gotoFirstChild()) {
      const node = read(current.type);
      if (node) current.add(node);
      stack.push(node);
      descend = true;
      continue;
    }
    if (stack.length === 1) break;
    stack.pop();
    const parent = stack[stack.length - 1] as ShellNode;
    if (cursor.gotoNextSibling()) {
      const node = read(parent.type);
      if (node) parent.add(node);
      stack.push(node);
      descend = true;
    } else {
      cursor.gotoParent();
      descend = false;
    }
  }
  return root;
}
