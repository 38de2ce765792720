// The contracts entry alone: index worker threads load this walker, and the full core costs ~0.4 s to import.
import { CODE_TOKEN_CLUE, oneLine, spanBetween, SyntaxWalker, WalkedNodeTypes } from '@agentgov/core/contracts';
import type {
  DefinitionKind,
  ExtractedDefinition,
  ExtractedFacts,
  ExtractedImport,
  ReferenceContext,
} from '@agentgov/core/contracts';
import type Parser from 'tree-sitter';

type SyntaxNode = Parser.SyntaxNode;

/** A comment/string token worth recording: looks like code (CamelCase, snake_case, a call, or `quoted`). */
const CODE_TOKEN =
  /[A-Za-z_][\w]*(?=\()|[A-Za-z_]*[a-z][A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|[A-Za-z]\w*_\w+|`{1,2}[A-Za-z_]\w*`{1,2}/g;

/** The node types the walk steps into: named ones with children, and the leaves it records. */
const NODE_TYPES = new WalkedNodeTypes([
  'identifier',
  'type_identifier',
  'field_identifier',
  'package_identifier',
  'comment',
  'interpreted_string_literal_content',
  'raw_string_literal_content',
]);
/** Frames whose field in their parent the identifier rules read. */
const FIELD_FRAMES = new Set(['expression_list', 'selector_expression', 'literal_element']);
/** Frames whose start offset the rules read (qualifier text, the member list a type declaration owns). */
const START_FRAMES = new Set([
  'selector_expression',
  'qualified_type',
  'composite_literal',
  'literal_value',
  'struct_type',
  'interface_type',
]);
/** Parents whose `name` identifiers declare a local (parameters, type parameters). */
const PARAMETER_PARENTS = new Set([
  'parameter_declaration',
  'variadic_parameter_declaration',
  'type_parameter_declaration',
]);
/**
 * `expression_list` parents (and the list's field) whose identifiers declare locals: `a, b := …`, `for k, v := range`.
 */
const DECLARING_LISTS: Record<string, string> = {
  short_var_declaration: 'left',
  range_clause: 'left',
  type_switch_statement: 'alias',
  receive_statement: 'left',
};

interface Scope {
  qualifiedName: string;
  def: ExtractedDefinition;
  identifiers: Set<string>;
  /** Parameters, type parameters and variables declared in the body: uses of them are not references. */
  locals: Set<string>;
  /** The method's receiver name (`s` of `func (s *Server)`): `s.x` is a member of the receiver type. */
  receiver: string | null;
  /** Start of the struct or interface type whose fields/methods this type declaration defines. */
  memberListStart: number;
}

/** Go exports what starts with an upper-case letter. */
function isExported(name: string): boolean {
  const first = name.charAt(0);
  return first !== first.toLowerCase();
}

/**
 * The local name an import binds when it has no alias: the package name, which by convention is
 * the last path element (`gopkg.in/yaml.v3` → `yaml`, `…/go-isatty` → `isatty`, `…/foo/v2` → `foo`).
 */
export function defaultPackageName(importPath: string): string {
  const parts = importPath.split('/').filter(Boolean);
  let last = parts[parts.length - 1] ?? importPath;
  if (/^v\d+$/.test(last) && parts.length > 1) last = parts[parts.length - 2]!;
  last = last
    .replace(/\.v\d+$/, '')
    .replace(/^go-/, '')
    .replace(/[-.]go$/, '');
  return last.replace(/[^\p{L}\p{N}_]/gu, '_');
}

/** One comment's text as a doc comment line (or lines): without its markers. */
function commentText(text: string): string {
  return text.startsWith('//')
    ? text.slice(2).replace(/^ /, '')
    : text
        .slice(2, -2)
        .split('\n')
        .map((line) => line.replace(/^\s*\* ?/, ''))
        .join('\n');
}

/** Walks one Go syntax tree into definitions, references and imports. */
class GoWalker extends SyntaxWalker<Parser.TreeCursor> {
  readonly #scopes: Scope[] = [];
  /** Start offsets of declared names (not references). */
  readonly #declared = new Set<number>();
  /** Local names that import bindings introduce (`fmt`, an alias): `fmt.X`'s operand is no reference. */
  readonly #importLocals = new Set<string>();
  /**
   * Depth of the node being visited. Per depth, the comments visited since the last other named sibling (offsets),
   * and how many of them came right before the node visited there last: a declaration's doc comment candidates.
   */
  #depth = 0;
  readonly #commentCount: number[] = [0];
  readonly #commentsBefore: number[] = [0];
  readonly #commentStarts: number[][] = [];
  readonly #commentEnds: number[][] = [];

  walk(tree: Parser.Tree): ExtractedFacts {
    NODE_TYPES.prepare(tree);
    this.visit(tree.walk());
    return this.facts();
  }

  protected override visit(cursor: Parser.TreeCursor): void {
    const type = NODE_TYPES.of(cursor);
    if (type === '') return;
    switch (type) {
      case 'identifier':
      case 'type_identifier':
      case 'field_identifier':
      case 'package_identifier':
        this.#identifier(cursor, type);
        return;
      case 'comment': {
        const start = cursor.startIndex;
        const end = cursor.endIndex;
        const depth = this.#depth;
        const count = this.#commentCount[depth]!;
        (this.#commentStarts[depth] ??= [])[count] = start;
        (this.#commentEnds[depth] ??= [])[count] = end;
        this.#commentCount[depth] = count + 1;
        this.#tokens(start, end, 'comment');
        return;
      }
      case 'interpreted_string_literal_content':
      case 'raw_string_literal_content':
        if (this.frames.up(2)?.type !== 'import_spec') this.#tokens(cursor.startIndex, cursor.endIndex, 'string');
        return;
    }
    const depth = this.#depth;
    this.#commentsBefore[depth] = this.#commentCount[depth]!;
    this.#commentCount[depth] = 0;
    let pushedScope = false;
    switch (type) {
      case 'package_clause':
        this.#packageClause(cursor.currentNode);
        break;
      case 'import_spec':
        this.#importSpec(cursor.currentNode);
        break;
      case 'function_declaration':
        pushedScope = this.#function(cursor.currentNode, null);
        break;
      case 'method_declaration':
        pushedScope = this.#method(cursor.currentNode);
        break;
      case 'type_spec':
      case 'type_alias':
        if (this.#scopes.length === 0) pushedScope = this.#typeSpec(cursor.currentNode);
        break;
      case 'field_declaration':
        this.#field(cursor.currentNode);
        break;
      case 'method_elem':
        this.#interfaceMethod(cursor.currentNode);
        break;
      case 'var_spec':
      case 'const_spec':
        if (this.#scopes.length === 0) this.#valueSpec(cursor.currentNode, type === 'const_spec');
        break;
    }
    const field = FIELD_FRAMES.has(type) ? (cursor.currentFieldName ?? null) : null;
    // Each cursor getter crosses into native code: read the start only where a rule uses it.
    this.frames.push(type, field, START_FRAMES.has(type) ? cursor.startIndex : -1);
    this.#depth = depth + 1;
    this.#commentCount[depth + 1] = 0;
    this.visitChildren(cursor);
    this.#depth = depth;
    this.frames.pop();
    if (pushedScope) {
      const scope = this.#scopes.pop()!;
      scope.def.bodyIdentifiers = [...scope.identifiers];
    }
  }

  /**
   * The `//` or `/* *\/` comment block right above a node (no blank line between), as text: the node starting at
   * `start` is the one the cursor is at (`up` 0) or an ancestor `up` levels above it, and its previous named
   * siblings that are comments are the ones the walk kept at that depth.
   */
  #docComment(start: number, up: number): string | null {
    const depth = this.#depth - up;
    let i = this.#commentsBefore[depth]!;
    if (i === 0) return null;
    const starts = this.#commentStarts[depth]!;
    const ends = this.#commentEnds[depth]!;
    const lines: string[] = [];
    let row = this.lines.point(start).row;
    while (i-- > 0) {
      if (this.lines.point(ends[i]!).row !== row - 1) break;
      lines.unshift(commentText(this.source.slice(starts[i], ends[i])));
      row = this.lines.point(starts[i]!).row;
    }
    const doc = lines.join('\n').trim();
    return doc.length > 0 ? doc : null;
  }

  #scope(): Scope | undefined {
    return this.#scopes[this.#scopes.length - 1];
  }

  #push(def: ExtractedDefinition, receiver: string | null, memberListStart = -1): true {
    this.definitions.push(def);
    this.#scopes.push({
      qualifiedName: def.qualifiedName,
      def,
      identifiers: new Set(),
      locals: new Set(),
      receiver,
      memberListStart,
    });
    return true;
  }

  #definition(
    kind: DefinitionKind,
    nameNode: SyntaxNode,
    qualifiedName: string,
    outer: SyntaxNode,
    signature: string,
    docstring: string | null,
  ): ExtractedDefinition {
    this.#declared.add(nameNode.startIndex);
    const name = nameNode.text;
    return {
      kind,
      name,
      qualifiedName,
      span: spanBetween(outer.startPosition, outer.endPosition),
      nameSpan: spanBetween(nameNode.startPosition, nameNode.endPosition),
      signature,
      docstring,
      text: outer.text,
      exported: isExported(name),
      isDefault: false,
      bodyIdentifiers: [],
    };
  }

  /** `package util`: one `module` definition per file that declares it. */
  #packageClause(node: SyntaxNode): void {
    const nameNode = node.namedChildren.find((child) => child.type === 'package_identifier');
    if (!nameNode) return;
    const def = this.#definition(
      'module',
      nameNode,
      nameNode.text,
      node,
      oneLine(node.text),
      this.#docComment(node.startIndex, 0),
    );
    def.exported = true;
    this.definitions.push(def);
  }

  #importSpec(node: SyntaxNode): void {
    const pathNode = node.childForFieldName('path');
    if (!pathNode) return;
    const specifier = pathNode.text.replace(/^["`]|["`]$/g, '');
    const nameNode = node.childForFieldName('name');
    const entry: ExtractedImport = {
      specifier,
      kind: 'import',
      bindings: [],
      star: false,
      line: node.startPosition.row + 1,
    };
    if (nameNode?.type === 'dot') entry.star = true;
    else if (nameNode?.type !== 'blank_identifier') {
      const local = nameNode?.text ?? defaultPackageName(specifier);
      entry.bindings.push({ imported: '*', local });
      this.#importLocals.add(local);
    }
    this.imports.push(entry);
  }

  #function(node: SyntaxNode, receiverType: string | null): boolean {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return false;
    const body = node.childForFieldName('body');
    const signature = oneLine(this.source.slice(node.startIndex, body ? body.startIndex : node.endIndex));
    const name = nameNode.text;
    const qualifiedName = receiverType ? `${receiverType}.${name}` : name;
    const def = this.#definition(
      receiverType ? 'method' : 'function',
      nameNode,
      qualifiedName,
      node,
      signature,
      this.#docComment(node.startIndex, 0),
    );
    let receiver: string | null = null;
    if (receiverType) {
      const param = node.childForFieldName('receiver')?.namedChildren.find((c) => c.type === 'parameter_declaration');
      receiver = param?.childForFieldName('name')?.text ?? null;
    }
    return this.#push(def, receiver);
  }

  /** `func (s *Server[T]) Start()` → `Server.Start`. */
  #method(node: SyntaxNode): boolean {
    const param = node.childForFieldName('receiver')?.namedChildren.find((c) => c.type === 'parameter_declaration');
    let type = param?.childForFieldName('type') ?? null;
    while (type && type.type !== 'type_identifier') {
      type =
        type.type === 'pointer_type' || type.type === 'parenthesized_type'
          ? (type.namedChildren[0] ?? null)
          : type.type === 'generic_type'
            ? type.childForFieldName('type')
            : null;
    }
    if (!type) return this.#function(node, null);
    return this.#function(node, type.text);
  }

  #typeSpec(node: SyntaxNode): boolean {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return false;
    const typeNode = node.childForFieldName('type');
    const kind: DefinitionKind =
      node.type === 'type_spec' && typeNode?.type === 'struct_type'
        ? 'struct'
        : node.type === 'type_spec' && typeNode?.type === 'interface_type'
          ? 'interface'
          : 'type';
    // A lone `type X …` spec: the declaration (with its `type` keyword and doc comment) is the definition.
    const parent = node.parent;
    const outer = parent?.type === 'type_declaration' && parent.namedChildren.length === 1 ? parent : node;
    const text = outer.text;
    const brace = kind === 'type' ? -1 : text.indexOf('{');
    const signature = oneLine(brace >= 0 ? text.slice(0, brace) : text, 200);
    const def = this.#definition(
      kind,
      nameNode,
      nameNode.text,
      outer,
      signature,
      this.#docComment(outer.startIndex, outer === node ? 0 : 1),
    );
    return this.#push(def, null, kind === 'type' ? -1 : typeNode!.startIndex);
  }

  /** A field of the struct a type declaration defines (`Server.Addr`); embedded fields define nothing. */
  #field(node: SyntaxNode): void {
    const scope = this.#scope();
    if (!scope || this.frames.up(1)?.type !== 'field_declaration_list') return;
    if (scope.memberListStart < 0 || this.frames.up(2)?.start !== scope.memberListStart) return;
    const names = node.childrenForFieldName('name');
    const docstring = this.#docComment(node.startIndex, 0);
    const signature = oneLine(node.text, 200);
    for (const nameNode of names)
      this.definitions.push(
        this.#definition('field', nameNode, `${scope.qualifiedName}.${nameNode.text}`, node, signature, docstring),
      );
  }

  #interfaceMethod(node: SyntaxNode): void {
    const scope = this.#scope();
    if (!scope || scope.memberListStart < 0 || this.frames.up(1)?.start !== scope.memberListStart) return;
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    this.definitions.push(
      this.#definition(
        'method',
        nameNode,
        `${scope.qualifiedName}.${nameNode.text}`,
        node,
        oneLine(node.text, 200),
        this.#docComment(node.startIndex, 0),
      ),
    );
  }

  /** Package-level `var`/`const` specs: one definition per name. */
  #valueSpec(node: SyntaxNode, constant: boolean): void {
    const parent = node.parent;
    const lone = parent && (parent.type === 'var_declaration' || parent.type === 'const_declaration') ? parent : null;
    const docstring = this.#docComment(node.startIndex, 0) ?? (lone ? this.#docComment(lone.startIndex, 1) : null);
    const outer = lone ?? node;
    const signature = oneLine(outer.text, 200);
    for (const nameNode of node.childrenForFieldName('name')) {
      // the field also holds the commas of `const a, b = 1, 2`
      if (nameNode.type !== 'identifier' || nameNode.text === '_') continue;
      this.definitions.push(
        this.#definition(constant ? 'constant' : 'variable', nameNode, nameNode.text, outer, signature, docstring),
      );
    }
  }

  #identifier(cursor: Parser.TreeCursor, type: string): void {
    const start = cursor.startIndex;
    const name = this.source.slice(start, cursor.endIndex);
    const scope = this.#scope();
    scope?.identifiers.add(name);
    if (this.#declared.has(start) || type === 'package_identifier' || name === '_') return;
    const parent = this.frames.up(1);
    if (!parent) return;
    let context: ReferenceContext = 'value';
    let qualifier: string | null = null;
    if (type === 'field_identifier') {
      if (parent.type !== 'selector_expression') return; // a field or method name being declared, a label
      qualifier = this.source
        .slice(parent.start, start)
        .replace(/\.\s*$/, '')
        .trim();
      // The receiver is Go's `self`: `s.count` inside `func (s *Counter)` is a member of Counter.
      if (scope?.receiver && qualifier === scope.receiver) qualifier = 'self';
      const grand = this.frames.up(2);
      context = grand?.type === 'call_expression' && parent.field === 'function' ? 'call' : 'member';
    } else if (type === 'type_identifier') {
      if (parent.type === 'qualified_type') {
        qualifier = this.source
          .slice(parent.start, start)
          .replace(/\.\s*$/, '')
          .trim();
      } else if (this.#isLocal(name)) return;
      context = 'type';
    } else {
      if (PARAMETER_PARENTS.has(parent.type)) {
        if (cursor.currentFieldName === 'name') {
          scope?.locals.add(name);
          return;
        }
      } else if (parent.type === 'var_spec' || parent.type === 'const_spec') {
        if (cursor.currentFieldName === 'name') {
          scope?.locals.add(name);
          return;
        }
      } else if (parent.type === 'expression_list') {
        const grand = this.frames.up(2);
        if (grand && DECLARING_LISTS[grand.type] === parent.field) {
          scope?.locals.add(name);
          return;
        }
      } else if (parent.type === 'selector_expression' && this.#importLocals.has(name) && !this.#isLocal(name)) {
        return; // `fmt` of `fmt.Println`: the package, named by the import
      } else if (parent.type === 'literal_element' && parent.field === 'key') {
        // `Config{Name: …}`: a field of the literal's type, its qualifier (`{}` for an element of an
        // outer literal, `[]T{{Name: …}}`, whose type the walk does not know)
        context = 'member';
        const values = this.frames.up(3);
        const literal = this.frames.up(4);
        qualifier =
          values?.type === 'literal_value' && literal?.type === 'composite_literal'
            ? this.source.slice(literal.start, values.start).trim()
            : '{}';
      } else if (parent.type === 'call_expression' && cursor.currentFieldName === 'function') {
        context = 'call';
      }
      if (context !== 'member' && this.#isLocal(name)) return;
    }
    this.reference(name, start, context, qualifier, scope?.qualifiedName ?? null);
  }

  #isLocal(name: string): boolean {
    for (let i = this.#scopes.length - 1; i >= 0; i--) if (this.#scopes[i]!.locals.has(name)) return true;
    return false;
  }

  #tokens(startIndex: number, endIndex: number, context: ReferenceContext): void {
    const enclosing = this.#scope()?.qualifiedName ?? null;
    this.mentions(startIndex, endIndex, CODE_TOKEN, context, enclosing, undefined, CODE_TOKEN_CLUE);
  }
}

export function walkGo(tree: Parser.Tree, source: string): ExtractedFacts {
  return new GoWalker(source).walk(tree);
}
