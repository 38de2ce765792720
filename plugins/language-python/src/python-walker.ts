// The contracts entry alone: index worker threads load this walker, and the full core costs ~0.4 s to import.
import { CODE_TOKEN_CLUE, oneLine, spanBetween, SyntaxWalker, WalkedNodeTypes } from '@agentgov/core/contracts';
import type {
  DefinitionKind,
  ExtractedDefinition,
  ExtractedFacts,
  ExtractedImport,
  ImportKind,
  ReferenceContext,
} from '@agentgov/core/contracts';
import type Parser from 'tree-sitter';

type SyntaxNode = Parser.SyntaxNode;

/** Identifiers that declare a local (parameters, loop targets of comprehensions): not references. */
const DECLARING_PARENTS = new Set([
  'parameters',
  'default_parameter',
  'typed_parameter',
  'typed_default_parameter',
  'lambda_parameters',
  'list_splat_pattern',
  'dictionary_splat_pattern',
]);
/** Identifiers bound by these parents (in the given field, or any when null) are locals of the enclosing function. */
const BINDING_FIELDS: Record<string, string | null> = {
  assignment: 'left',
  augmented_assignment: 'left',
  for_statement: 'left',
  for_in_clause: 'left',
  named_expression: 'name',
  pattern_list: null,
  tuple_pattern: null,
  list_pattern: null,
  as_pattern_target: null,
};
/** Parents under which an identifier's field name decides what it is (bound, a keyword, called, an attribute). */
const FIELD_PARENTS = new Set([
  ...Object.keys(BINDING_FIELDS).filter((type) => BINDING_FIELDS[type] !== null),
  'default_parameter',
  'keyword_argument',
  'call',
  'attribute',
]);
/**
 * A comment/string token worth recording: looks like code (CamelCase, snake_case, a call, or `quoted`). Every match
 * holds a `CODE_TOKEN_CLUE`: a text without one is not searched.
 */
const CODE_TOKEN =
  /[A-Za-z_][\w]*(?=\()|[A-Za-z_]*[a-z][A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|[A-Za-z]\w*_\w+|`{1,2}[A-Za-z_]\w*`{1,2}/g;

/** The node types the walk steps into: named ones with children, and the leaves it records. */
const NODE_TYPES = new WalkedNodeTypes(['identifier', 'comment', 'string_content']);

interface Scope {
  qualifiedName: string;
  def: ExtractedDefinition;
  identifiers: Set<string>;
  isClass: boolean;
  /**
   * Names bound inside a function (parameters, assignments, loop targets): Python makes them
   * local to the whole function, so their uses are not references to any definition.
   */
  locals: Set<string> | null;
}

/** The docstring: a string literal as the first statement of the body. */
function docstringOf(body: SyntaxNode | null): string | null {
  // `firstNamedChild`, not `namedChildren[0]`: the latter builds a node object for every statement of the body.
  const first = body?.firstNamedChild;
  if (!first || first.type !== 'expression_statement') return null;
  const literal = first.firstNamedChild;
  if (!literal || literal.type !== 'string') return null;
  const content = literal.namedChildren
    .filter((child) => child.type === 'string_content')
    .map((child) => child.text)
    .join('');
  const lines = content.split('\n');
  const indents = lines
    .slice(1)
    .filter((line) => line.trim())
    .map((line) => line.length - line.trimStart().length);
  const indent = indents.length > 0 ? Math.min(...indents) : 0;
  const text = [lines[0]!.trim(), ...lines.slice(1).map((line) => line.slice(indent).trimEnd())].join('\n').trim();
  return text.length > 0 ? text : null;
}

/** `TYPE_CHECKING` or `typing.TYPE_CHECKING` (any module alias): true only while a type checker reads the code. */
const TYPE_CHECKING_CONDITION = /^(?:[A-Za-z_]\w*\.)?TYPE_CHECKING$/;

/**
 * Whether `node` sits in the body of an `if TYPE_CHECKING:` (not its `else`). Walks native parents: call it only for
 * imports.
 */
function underTypeChecking(node: SyntaxNode): boolean {
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (
      parent.type !== 'if_statement' ||
      !TYPE_CHECKING_CONDITION.test(parent.childForFieldName('condition')?.text ?? '')
    )
      continue;
    const body = parent.childForFieldName('consequence');
    if (body && body.startIndex === child.startIndex && body.endIndex === child.endIndex) return true;
  }
  return false;
}

/** Walks one Python syntax tree into definitions, references and imports. */
class PythonWalker extends SyntaxWalker<Parser.TreeCursor> {
  /** Ancestor frames, one object per depth reused across the walk. */
  readonly #scopes: Scope[] = [];
  readonly #declaredNames = new Set<number>();
  #importDepth = 0;
  #typeDepth = 0;

  walk(tree: Parser.Tree): ExtractedFacts {
    NODE_TYPES.prepare(tree);
    this.visit(tree.walk());
    return this.facts();
  }

  protected override visit(cursor: Parser.TreeCursor): void {
    const type = NODE_TYPES.of(cursor);
    if (type === '') return;
    if (type === 'identifier') {
      this.#identifier(cursor);
      return;
    }
    // Each cursor getter crosses into native code: read field and offset only where they are used
    // (an attribute's field only matters under a call: `a.b()` is a call of `b`).
    const framed = type === 'attribute';
    const field = framed && this.frames.up(1)?.type === 'call' ? (cursor.currentFieldName ?? null) : null;
    const start = framed ? cursor.startIndex : 0;
    let pushedScope = false;
    switch (type) {
      case 'comment':
        this.#tokens(cursor.startIndex, cursor.endIndex, 'comment');
        return;
      case 'string_content':
        this.#tokens(cursor.startIndex, cursor.endIndex, 'string');
        return;
      case 'function_definition':
        pushedScope = this.#define(cursor.currentNode, this.#scope()?.isClass ? 'method' : 'function', false);
        break;
      case 'class_definition':
        pushedScope = this.#define(cursor.currentNode, 'class', true);
        break;
      case 'assignment':
        // Inside a def or class an assignment defines nothing; its target identifiers bind locals.
        if (this.#scopes.length === 0) this.#assignment(cursor.currentNode);
        break;
      case 'import_statement':
        this.#importStatement(cursor.currentNode);
        break;
      case 'import_from_statement':
        this.#importFrom(cursor.currentNode);
        break;
    }
    const depthKind =
      type === 'type'
        ? 'type'
        : type === 'import_statement' || type === 'import_from_statement' || type === 'future_import_statement'
          ? 'import'
          : null;
    if (depthKind === 'type') this.#typeDepth++;
    else if (depthKind === 'import') this.#importDepth++;
    this.frames.push(type, field, start);
    this.visitChildren(cursor);
    this.frames.pop();
    if (depthKind === 'type') this.#typeDepth--;
    else if (depthKind === 'import') this.#importDepth--;
    if (pushedScope) {
      const scope = this.#scopes.pop()!;
      scope.def.bodyIdentifiers = [...scope.identifiers];
    }
  }

  #scope(): Scope | undefined {
    return this.#scopes[this.#scopes.length - 1];
  }

  #define(node: SyntaxNode, kind: DefinitionKind, isClass: boolean): boolean {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return false;
    this.#declaredNames.add(nameNode.startIndex);
    const name = nameNode.text;
    const body = node.childForFieldName('body');
    // `node` is the cursor's node, so the frames are its ancestors; `parent` is a native search from the root.
    const outer = this.frames.up(1)?.type === 'decorated_definition' ? node.parent! : node;
    const scope = this.#scope();
    const def: ExtractedDefinition = {
      kind,
      name,
      qualifiedName: scope ? `${scope.qualifiedName}.${name}` : name,
      span: spanBetween(outer.startPosition, outer.endPosition),
      nameSpan: spanBetween(nameNode.startPosition, nameNode.endPosition),
      signature: oneLine(this.source.slice(node.startIndex, body ? body.startIndex : node.endIndex)).replace(/:$/, ''),
      docstring: docstringOf(body),
      text: outer.text,
      exported: !name.startsWith('_') && (scope === undefined || (scope.isClass && scope.def.exported)),
      isDefault: false,
      bodyIdentifiers: [],
    };
    this.definitions.push(def);
    this.#scopes.push({
      qualifiedName: def.qualifiedName,
      def,
      identifiers: new Set(),
      isClass,
      locals: isClass ? null : new Set(),
    });
    return true;
  }

  /** Module-level `NAME = ...` (constant when upper-case) is a definition; anything else is local. */
  #assignment(node: SyntaxNode): void {
    const left = node.childForFieldName('left');
    if (!left || left.type !== 'identifier') return;
    // `node` is the cursor's node, so the frames are its ancestors; `parent` is a native search from the root.
    if (
      this.#scopes.length > 0 ||
      this.frames.up(1)?.type !== 'expression_statement' ||
      this.frames.up(2)?.type !== 'module'
    ) {
      if (this.#scope()?.isClass === false) this.#declaredNames.add(left.startIndex);
      return;
    }
    const statement = node.parent!;
    this.#declaredNames.add(left.startIndex);
    const name = left.text;
    const kind: DefinitionKind = /^[A-Z][A-Z0-9_]*$/.test(name) ? 'constant' : 'variable';
    this.definitions.push({
      kind,
      name,
      qualifiedName: name,
      span: spanBetween(statement.startPosition, statement.endPosition),
      nameSpan: spanBetween(left.startPosition, left.endPosition),
      signature: oneLine(statement.text, 200),
      docstring: null,
      text: statement.text,
      exported: !name.startsWith('_'),
      isDefault: false,
      bodyIdentifiers: [],
    });
  }

  #identifier(cursor: Parser.TreeCursor): void {
    const start = cursor.startIndex;
    const name = this.source.slice(start, cursor.endIndex);
    const scope = this.#scope();
    scope?.identifiers.add(name);
    const parent = this.frames.up(1);
    if (!parent) return;
    const field = FIELD_PARENTS.has(parent.type) ? (cursor.currentFieldName ?? null) : null;
    const binding = BINDING_FIELDS[parent.type];
    const declares =
      (DECLARING_PARENTS.has(parent.type) && !(parent.type === 'default_parameter' && field === 'value')) ||
      (binding !== undefined && (binding === null || binding === field));
    if (declares) {
      if (scope?.locals) scope.locals.add(name);
      if (parent.type !== 'augmented_assignment') return;
    }
    if (this.#declaredNames.has(start)) return;
    if (parent.type === 'keyword_argument' && field === 'name') return;
    let context: ReferenceContext = 'value';
    let qualifier: string | null = null;
    if (this.#importDepth > 0) context = 'import';
    else if (this.#typeDepth > 0) context = 'type';
    else if (parent.type === 'call' && field === 'function') context = 'call';
    else if (parent.type === 'attribute' && field === 'attribute') {
      qualifier = this.source
        .slice(parent.start, start)
        .replace(/\.\s*$/, '')
        .trim();
      const grand = this.frames.up(2);
      context = grand && grand.type === 'call' && parent.field === 'function' ? 'call' : 'member';
    }
    if (qualifier === null && (context === 'value' || context === 'call') && this.#isLocal(name)) return;
    this.reference(name, start, context, qualifier, scope?.qualifiedName ?? null);
  }

  /** Bound in an enclosing function (closures see their outer functions' locals; class bodies don't count). */
  #isLocal(name: string): boolean {
    for (let i = this.#scopes.length - 1; i >= 0; i--) if (this.#scopes[i]!.locals?.has(name)) return true;
    return false;
  }

  #tokens(startIndex: number, endIndex: number, context: ReferenceContext): void {
    const enclosing = this.#scope()?.qualifiedName ?? null;
    this.mentions(startIndex, endIndex, CODE_TOKEN, context, enclosing, undefined, CODE_TOKEN_CLUE);
  }

  /** When the import runs: with the module, only for a type checker, or when its enclosing function runs. */
  #importKind(node: SyntaxNode): ImportKind {
    if (this.frames.has('if_statement') && underTypeChecking(node)) return 'type-only';
    return this.#scopes.some((scope) => !scope.isClass) ? 'deferred' : 'python';
  }

  /** `import a.b` binds `a.b` as a namespace (qualifier `a.b` in `a.b.f()`); `import a.b as c` binds `c`. */
  #importStatement(node: SyntaxNode): void {
    const kind = this.#importKind(node);
    for (const child of node.namedChildren) {
      const dotted = child.type === 'aliased_import' ? child.childForFieldName('name') : child;
      if (!dotted || dotted.type !== 'dotted_name') continue;
      const alias = child.type === 'aliased_import' ? (child.childForFieldName('alias')?.text ?? null) : null;
      this.imports.push({
        specifier: dotted.text,
        kind,
        bindings: [{ imported: '*', local: alias ?? dotted.text }],
        star: false,
        line: node.startPosition.row + 1,
      });
    }
  }

  #importFrom(node: SyntaxNode): void {
    const module = node.childForFieldName('module_name');
    if (!module) return;
    const entry: ExtractedImport = {
      specifier: module.text.replace(/\s+/g, ''),
      kind: this.#importKind(node),
      bindings: [],
      star: false,
      line: node.startPosition.row + 1,
    };
    for (const child of node.namedChildren) {
      if (child.startIndex === module.startIndex) continue;
      if (child.type === 'wildcard_import') entry.star = true;
      else if (child.type === 'dotted_name') entry.bindings.push({ imported: child.text, local: child.text });
      else if (child.type === 'aliased_import') {
        const imported = child.childForFieldName('name')?.text;
        if (imported) entry.bindings.push({ imported, local: child.childForFieldName('alias')?.text ?? imported });
      }
    }
    this.imports.push(entry);
  }
}

export function walkPython(tree: Parser.Tree, source: string): ExtractedFacts {
  return new PythonWalker(source).walk(tree);
}
