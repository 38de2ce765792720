/**
 * One tree-sitter runtime per thread. Each package that parses (the server's indexer, a language
 * pack's refactor engine) depends on `tree-sitter`, and an install from the registry can give each
 * its own copy of the native binding (a grammar's older peer range keeps them from being
 * hoisted). Two copies in one thread break each other's trees: a node of one copy's tree fails the
 * other's `instanceof Tree` check ("SyntaxNode must belong to a Tree"), and the file is skipped as
 * unparsable. So every parser is made from the first runtime registered in the thread, whichever
 * package loads first; a package passes how to load its own copy, used only when none is there.
 */
const RUNTIME = Symbol.for('agentgov.tree-sitter.runtime');

type RuntimeHolder = { [RUNTIME]?: unknown };

/**
 * The thread's tree-sitter `Parser` class: the one registered first, else `load()`'s (typically
 * `() => createRequire(import.meta.url)('tree-sitter')`), which is then registered for the rest.
 */
export function sharedTreeSitter<T>(load: () => T): T {
  const holder = globalThis as RuntimeHolder;
  if (holder[RUNTIME] === undefined) holder[RUNTIME] = load();
  return holder[RUNTIME] as T;
}
