import type Parser from 'tree-sitter';

type SyntaxNode = Parser.SyntaxNode;

/** A place where a module serves or builds names at run time, which no static rename can follow. */
export interface DynamicNameSource {
  kind: 'module __getattr__' | 'globals()' | '__all__';
  /** 1-based line. */
  line: number;
  /** What is written there, on one line (shortened). */
  text: string;
  /** The whole construct's text (the `__getattr__` function, the statement). */
  body: string;
}

const GLOBALS_METHODS = new Set(['get', 'update', 'setdefault', 'pop', '__getitem__', '__setitem__']);
const LIST_METHODS = new Set(['append', 'extend', 'insert', 'remove']);

const oneLine = (node: SyntaxNode) => {
  const text = node.text.split('\n')[0]!.trim();
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

/**
 * A module-level `def __getattr__` (PEP 562: names looked up when missing, e.g. deprecated aliases
 * mapped through `globals()[f"_{name}"]`), lookups and writes through `globals()[…]`,
 * `globals().get/update/setdefault(…)`, and an `__all__` built at run time (`+=`, `.append`,
 * `.extend`, or a value that is not a literal list/tuple of strings).
 */
export function dynamicNameSources(root: SyntaxNode): DynamicNameSource[] {
  const found: DynamicNameSource[] = [];
  const add = (kind: DynamicNameSource['kind'], node: SyntaxNode) =>
    found.push({ kind, line: node.startPosition.row + 1, text: oneLine(node), body: node.text });
  for (const statement of root.namedChildren) {
    const fn = statement.type === 'decorated_definition' ? statement.childForFieldName('definition') : statement;
    if (fn?.type === 'function_definition' && fn.childForFieldName('name')?.text === '__getattr__') {
      add('module __getattr__', fn);
    }
  }
  const visit = (node: SyntaxNode): void => {
    if (node.type === 'call' && node.childForFieldName('function')?.text === 'globals') {
      const parent = node.parent;
      const use = parent?.type === 'subscript' && parent.childForFieldName('value')?.startIndex === node.startIndex;
      const method =
        parent?.type === 'attribute' && GLOBALS_METHODS.has(parent.childForFieldName('attribute')?.text ?? '');
      if (use || method) add('globals()', lineStatement(node));
    }
    if (node.type === 'augmented_assignment' && node.childForFieldName('left')?.text === '__all__') {
      add('__all__', node);
    }
    if (node.type === 'assignment' && node.childForFieldName('left')?.text === '__all__') {
      const right = node.childForFieldName('right');
      const literal =
        right &&
        (right.type === 'list' || right.type === 'tuple') &&
        right.namedChildren.every((item) => item.type === 'string' || item.type === 'comment');
      if (!literal) add('__all__', node);
    }
    if (node.type === 'call') {
      const callee = node.childForFieldName('function');
      const onAll = callee?.type === 'attribute' && callee.childForFieldName('object')?.text === '__all__';
      if (onAll && LIST_METHODS.has(callee.childForFieldName('attribute')?.text ?? '')) add('__all__', node);
    }
    for (const child of node.namedChildren) visit(child);
  };
  visit(root);
  return found;
}

/** The statement a node is part of, for a readable excerpt. */
function lineStatement(node: SyntaxNode): SyntaxNode {
  let at = node;
  while (at.parent && at.parent.type !== 'block' && at.parent.type !== 'module') at = at.parent;
  return at;
}
