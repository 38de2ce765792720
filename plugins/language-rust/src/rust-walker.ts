// The contracts entry alone: index worker threads load this walker, and the full core costs ~0.4 s to import.
import { CODE_TOKEN_CLUE, oneLine, spanBetween, SyntaxWalker, WalkedNodeTypes } from '@agentgov/core/contracts';
import type {
  DefinitionKind,
  ExtractedDefinition,
  ExtractedFacts,
  Frame,
  ReferenceContext,
} from '@agentgov/core/contracts';
import type Parser from 'tree-sitter';

type SyntaxNode = Parser.SyntaxNode;

/** Item node types that define something, and the kind each defines. */
const ITEM_KINDS: Record<string, DefinitionKind> = {
  function_item: 'function',
  function_signature_item: 'function',
  struct_item: 'struct',
  union_item: 'struct',
  enum_item: 'enum',
  trait_item: 'trait',
  mod_item: 'module',
  type_item: 'type',
  associated_type: 'type',
  const_item: 'constant',
  static_item: 'variable',
  macro_definition: 'macro',
  enum_variant: 'constant',
  field_declaration: 'field',
};
/** Parents whose children's field names decide what an identifier is. */
const FIELD_PARENTS = new Set([
  'scoped_identifier',
  'scoped_type_identifier',
  'field_expression',
  'call_expression',
  'macro_invocation',
  'generic_function',
  'let_declaration',
  'parameter',
  'for_expression',
  'let_condition',
  'tuple_struct_pattern',
  'struct_pattern',
  'field_initializer',
  'field_pattern',
  'closure_expression',
  'match_arm',
  'impl_item',
  'scoped_use_list',
  'use_as_clause',
]);
/** Node types whose start offset the walk reads back (a path's or a member access's qualifier). */
const FRAMED = new Set(['scoped_identifier', 'scoped_type_identifier', 'field_expression']);
/** Parents whose `pattern` field binds locals. */
const PATTERN_HOSTS = new Set(['let_declaration', 'parameter', 'for_expression', 'let_condition', 'match_arm']);
/** Node types skipped whole: attributes (`#[derive(..)]`), and a macro definition's rules (metavariables). */
const SKIPPED = new Set(['attribute_item', 'inner_attribute_item', 'macro_rule']);
/** Path roots of the standard library: a path under them names nothing in the repository. */
const STD_ROOTS = new Set(['std', 'core', 'alloc']);
/** A comment/string token worth recording: looks like code (CamelCase, snake_case, a call, a path, or `quoted`). */
const CODE_TOKEN = /[A-Za-z_][\w]*(?=\()|[A-Za-z_]*[a-z][A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|[A-Za-z]\w*_\w+|`[A-Za-z_]\w*`/g;

/** A word of a string literal or comment worth searching by. */
const WORD = /[A-Za-z_][A-Za-z0-9_]{2,}/g;

/** The node types the walk steps into: named ones with children, and the leaves it records. */
const NODE_TYPES = new WalkedNodeTypes([
  'identifier',
  'type_identifier',
  'field_identifier',
  'shorthand_field_identifier',
  'string_content',
  'self',
  'crate',
  'super',
]);

interface Scope {
  qualifiedName: string;
  /** Null for an `impl` block: it qualifies its members but defines nothing itself. */
  def: ExtractedDefinition | null;
  identifiers: Set<string>;
  /** What a member defined directly inside is (`impl`/`trait` → method). */
  role: 'fn' | 'type' | 'impl' | 'trait' | 'mod';
  /** Names bound by patterns in a function (parameters, `let`, `for`, match arms). */
  locals: Set<string> | null;
  /** The `impl`'s type name (what `Self` means inside). */
  selfType: string | null;
  /** A `#[cfg(test)]` module or something inside one. */
  test: boolean;
  /** An `impl Trait for Type` block. */
  traitImpl: boolean;
}

const isWordCode = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isIdentifierStartCode = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
/** What a regular expression's `\s` matches. */
const isSpaceCode = (c: number): boolean =>
  (c >= 9 && c <= 13) ||
  c === 32 ||
  (c >= 128 &&
    (c === 0xa0 ||
      c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0x202f ||
      c === 0x205f ||
      c === 0x3000 ||
      c === 0xfeff));

function skipSpaceBack(source: string, at: number, low: number): number {
  while (at > low && isSpaceCode(source.charCodeAt(at - 1))) at--;
  return at;
}

/** Where the identifier (`[A-Za-z_]\w*`, leftmost start) that ends at `end` begins, or -1; `low` bounds the scan. */
function identifierBefore(source: string, end: number, low: number): number {
  let word = end;
  while (word > low && isWordCode(source.charCodeAt(word - 1))) word--;
  while (word < end && !isIdentifierStartCode(source.charCodeAt(word))) word++;
  return word < end ? word : -1;
}

/**
 * Where the path `a::b::` (segments `[A-Za-z_]\w*` or `$crate`, spaces allowed around `::`) that ends at `end`
 * begins, or -1: the match of `/((?:(?:[A-Za-z_]\w*|\$crate)\s*::\s*)+)$/` over `source.slice(low, end)`, scanned
 * backwards (a `$`-anchored regular expression is tried from every offset of the text).
 */
export function pathStartBefore(source: string, end: number, low: number): number {
  let found = -1;
  let at = end;
  for (;;) {
    let p = skipSpaceBack(source, at, low);
    if (p - 2 < low || source.charCodeAt(p - 1) !== 58 || source.charCodeAt(p - 2) !== 58) return found;
    p = skipSpaceBack(source, p - 2, low);
    let segment = identifierBefore(source, p, low);
    if (segment < 0) return found;
    const whole = segment === 0 || segment === low || !isWordCode(source.charCodeAt(segment - 1));
    if (!whole) return segment; // `12ab::`: the path starts inside the word, nothing before it joins
    if (segment > low && source.charCodeAt(segment - 1) === 36 && source.slice(segment, p) === 'crate') segment--;
    found = at = segment;
  }
}

/**
 * The operand before a trailing `.` (an identifier, or `)`, `]`, `?`) ending at `end`, or null: the first group of
 * `/([A-Za-z_]\w*|[)\]?])\s*\.\s*$/` over `source.slice(low, end)`, scanned backwards.
 */
export function memberOperandBefore(source: string, end: number, low: number): string | null {
  let p = skipSpaceBack(source, end, low);
  if (p - 1 < low || source.charCodeAt(p - 1) !== 46) return null;
  p = skipSpaceBack(source, p - 1, low);
  if (p - 1 < low) return null;
  const c = source.charCodeAt(p - 1);
  if (c === 41 || c === 93 || c === 63) return source[p - 1]!;
  const word = identifierBefore(source, p, low);
  return word < 0 ? null : source.slice(word, p);
}

const isUpper = (name: string): boolean => name.charCodeAt(0) >= 65 && name.charCodeAt(0) <= 90;

/** The type's base name: `Foo<T>` → `Foo`, `a::Foo` → `Foo`, `&mut Foo` → `Foo`. */
function typeBaseName(node: SyntaxNode | null): string | null {
  if (!node) return null;
  switch (node.type) {
    case 'type_identifier':
    case 'primitive_type':
      return node.text;
    case 'generic_type':
      return typeBaseName(node.childForFieldName('type'));
    case 'scoped_type_identifier':
      return node.childForFieldName('name')?.text ?? null;
    case 'reference_type':
    case 'pointer_type':
      return typeBaseName(node.childForFieldName('type'));
    default:
      return null;
  }
}

/** A `///` or `/** *\/` doc comment (not `////` or `/***`). */
function isDocComment(text: string): boolean {
  return text.charCodeAt(1) === 47
    ? text.startsWith('///') && !text.startsWith('////')
    : text.startsWith('/**') && !text.startsWith('/***');
}

/**
 * The attributes and doc comments written above an item: `texts[0..count)` are the attribute items and doc comments
 * right before it among its siblings (the walk keeps that run, and ends it at any other sibling).
 */
function leadingTrivia(texts: readonly string[], count: number): { doc: string | null; attributes: string[] } {
  const docs: string[] = [];
  const attributes: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const text = texts[i]!;
    if (text.charCodeAt(0) !== 47) attributes.push(text);
    else if (text.charCodeAt(1) === 47) docs.push(text.slice(3).replace(/^ /, '').trimEnd());
    else {
      docs.push(
        text
          .slice(3, -2)
          .split('\n')
          .map((line) => line.replace(/^\s*\*? ?/, '').trimEnd())
          .join('\n')
          .trim(),
      );
    }
  }
  const doc = docs.reverse().join('\n').trim();
  return { doc: doc.length > 0 ? doc : null, attributes };
}

const CFG_TEST = /^#\[cfg\(\s*test\s*\)\]$/;

/** Walks one Rust syntax tree into definitions, references and imports (`use` items and the paths code names). */
class RustWalker extends SyntaxWalker<Parser.TreeCursor> {
  readonly #scopes: Scope[] = [];
  readonly #declaredNames = new Set<number>();
  /** `use` bindings of this file: local name → the path it stands for (`crate::util`). */
  readonly #useBindings = new Map<string, string>();
  /** Modules this file declares with `mod name;` (their code is in another file). */
  readonly #fileModules = new Set<string>();
  /** Paths the code names (`crate::a::f()`) already turned into an import of this file. */
  readonly #pathImports = new Set<string>();
  /** Struct names of the struct expressions being walked (`S { a: 1 }`: `a` is a member of `S`). */
  readonly #structExpressions: Array<string | null> = [];
  #useDepth = 0;
  #patternDepth = 0;
  /** Depth of the node being visited; per depth, the attributes and doc comments just visited there (their text). */
  #depth = 0;
  readonly #triviaCount: number[] = [0];
  readonly #trivia: string[][] = [];
  /** Inline `mod` blocks around the walk (`super::` inside one names this file's module). */
  #inlineModules = 0;

  walk(tree: Parser.Tree): ExtractedFacts {
    NODE_TYPES.prepare(tree);
    this.#prescan(tree.rootNode);
    this.visit(tree.walk());
    return this.facts();
  }

  /** Top-level `mod name;` and `use` bindings, so a path used above its `use` still resolves. */
  #prescan(root: SyntaxNode): void {
    for (const child of root.namedChildren) {
      if (child.type === 'mod_item' && !child.childForFieldName('body')) {
        const name = child.childForFieldName('name')?.text;
        if (name) this.#fileModules.add(name);
      } else if (child.type === 'use_declaration') {
        const argument = child.childForFieldName('argument');
        if (argument)
          for (const use of this.#useTree(argument, '')) if (use.local) this.#useBindings.set(use.local, use.path);
      }
    }
  }

  protected override visit(cursor: Parser.TreeCursor): void {
    const type = NODE_TYPES.of(cursor);
    const depth = this.#depth;
    // The run of attributes and doc comments right before this node among its siblings (see `leadingTrivia`).
    const trivia = this.#triviaCount[depth]!;
    if (type === 'attribute_item' || type === 'line_comment' || type === 'block_comment') {
      const start = cursor.startIndex;
      const end = cursor.endIndex;
      if (type !== 'attribute_item') this.#tokens(start, end, 'comment');
      if (type === 'attribute_item' || isDocComment(this.source.slice(start, start + 4))) {
        (this.#trivia[depth] ??= [])[trivia] = this.source.slice(start, end);
        this.#triviaCount[depth] = trivia + 1;
      } else this.#triviaCount[depth] = 0;
      return;
    }
    if (trivia !== 0) this.#triviaCount[depth] = 0;
    if (type === '' || SKIPPED.has(type)) return;
    const parent = this.frames.up(1);
    switch (type) {
      case 'identifier':
      case 'type_identifier':
      case 'field_identifier':
      case 'shorthand_field_identifier':
        this.#identifier(cursor, type, parent);
        return;
      case 'self':
      case 'crate':
      case 'super':
        return;
      case 'string_content':
        this.#tokens(cursor.startIndex, cursor.endIndex, 'string');
        return;
      case 'raw_string_literal':
        this.#tokens(cursor.startIndex, cursor.endIndex, 'string');
        return;
    }
    const field = parent && FIELD_PARENTS.has(parent.type) ? (cursor.currentFieldName ?? null) : null;
    let pushedScope = false;
    let pattern = false;
    let inlineModule = false;
    let structExpression = false;
    const kind = ITEM_KINDS[type];
    if (kind) {
      const node = cursor.currentNode;
      pushedScope = this.#define(node, type, kind, leadingTrivia(this.#trivia[depth] ?? [], trivia));
      if (type === 'mod_item' && node.childForFieldName('body')) inlineModule = true;
    } else if (type === 'impl_item') {
      pushedScope = this.#impl(cursor.currentNode);
    } else if (type === 'use_declaration') {
      this.#use(cursor.currentNode);
    } else if (type === 'struct_expression' || type === 'struct_pattern') {
      structExpression = true;
      const name = cursor.currentNode.childForFieldName(type === 'struct_pattern' ? 'type' : 'name');
      const base = name ? (typeBaseName(name) ?? name.text.split('::').pop() ?? null) : null;
      this.#structExpressions.push(base === 'Self' ? this.#selfType() : base);
    }
    if (
      (field === 'pattern' && parent && PATTERN_HOSTS.has(parent.type)) ||
      type === 'closure_parameters' ||
      (type === 'match_pattern' && this.#patternDepth === 0)
    )
      pattern = true;
    if (pattern) this.#patternDepth++;
    if (inlineModule) this.#inlineModules++;
    if (type === 'use_declaration') this.#useDepth++;
    // each cursor getter crosses into native code: the start offset only where a path or member needs it
    this.frames.push(type, field, FRAMED.has(type) ? cursor.startIndex : 0);
    this.#depth = depth + 1;
    this.#triviaCount[depth + 1] = 0;
    this.visitChildren(cursor);
    this.#depth = depth;
    this.frames.pop();
    if (type === 'use_declaration') this.#useDepth--;
    if (inlineModule) this.#inlineModules--;
    if (pattern) this.#patternDepth--;
    if (structExpression) this.#structExpressions.pop();
    if (pushedScope) {
      const scope = this.#scopes.pop()!;
      // test code (a `#[cfg(test)]` module) stays indexed but lends recon no search words
      if (scope.def) scope.def.bodyIdentifiers = scope.test ? [] : [...scope.identifiers];
    }
  }

  #scope(): Scope | undefined {
    return this.#scopes[this.#scopes.length - 1];
  }

  /** The innermost enclosing definition's qualified name (an `impl` block defines nothing). */
  #enclosing(): string | null {
    for (let i = this.#scopes.length - 1; i >= 0; i--) if (this.#scopes[i]!.def) return this.#scopes[i]!.qualifiedName;
    return null;
  }

  #selfType(): string | null {
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const scope = this.#scopes[i]!;
      if (scope.selfType) return scope.selfType;
      if (scope.role === 'mod') return null;
    }
    return null;
  }

  /** `impl Type` / `impl Trait for Type`: its members are qualified by the type's name. */
  #impl(node: SyntaxNode): boolean {
    const name = typeBaseName(node.childForFieldName('type'));
    if (!name) return false;
    const outer = this.#scope();
    const prefix = outer && outer.role === 'mod' ? `${outer.qualifiedName}.` : '';
    this.#scopes.push({
      qualifiedName: `${prefix}${name}`,
      def: null,
      identifiers: outer?.identifiers ?? new Set(),
      role: 'impl',
      locals: null,
      selfType: name,
      test: outer?.test ?? false,
      // a trait impl's methods are as visible as the trait
      traitImpl: node.childForFieldName('trait') !== null,
    });
    return true;
  }

  #define(
    node: SyntaxNode,
    type: string,
    baseKind: DefinitionKind,
    { doc, attributes }: { doc: string | null; attributes: string[] },
  ): boolean {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return false;
    this.#declaredNames.add(nameNode.startIndex);
    const name = nameNode.text;
    const scope = this.#scope();
    let kind = baseKind;
    if (baseKind === 'function' && scope && (scope.role === 'impl' || scope.role === 'trait')) kind = 'method';
    const body =
      node.childForFieldName('body') ??
      (type === 'const_item' || type === 'static_item' ? node.childForFieldName('value') : null);
    const visibility = node.firstNamedChild?.type === 'visibility_modifier';
    const exported =
      visibility ||
      (scope?.role === 'trait' && (scope.def?.exported ?? false)) ||
      (scope?.role === 'impl' && scope.traitImpl) ||
      (type === 'enum_variant' && (scope?.def?.exported ?? false)) ||
      (type === 'macro_definition' && attributes.some((a) => a.includes('macro_export')));
    const test =
      (scope?.test ?? false) || (type === 'mod_item' && attributes.some((a) => CFG_TEST.test(a.replace(/\s+/g, ''))));
    const signatureEnd =
      type === 'macro_definition'
        ? nameNode.endIndex + 1
        : body && body.startIndex > node.startIndex
          ? body.startIndex
          : node.endIndex;
    const signature = oneLine(this.source.slice(node.startIndex, signatureEnd)).replace(/[=\s]+$/, '');
    const qualifiedName = scope ? `${scope.qualifiedName}.${name}` : name;
    const def: ExtractedDefinition = {
      kind,
      name,
      qualifiedName,
      span: spanBetween(node.startPosition, node.endPosition),
      nameSpan: spanBetween(nameNode.startPosition, nameNode.endPosition),
      signature,
      docstring: doc,
      text: node.text,
      exported,
      isDefault: false,
      bodyIdentifiers: [],
    };
    this.definitions.push(def);
    const role: Scope['role'] =
      type === 'function_item' || type === 'function_signature_item' || type === 'const_item' || type === 'static_item'
        ? 'fn'
        : type === 'trait_item'
          ? 'trait'
          : type === 'mod_item'
            ? 'mod'
            : 'type';
    this.#scopes.push({
      qualifiedName,
      def,
      identifiers: new Set(),
      role,
      locals: role === 'fn' ? new Set() : null,
      selfType: type === 'trait_item' || type === 'struct_item' || type === 'enum_item' ? name : null,
      test,
      traitImpl: false,
    });
    return true;
  }

  #identifier(cursor: Parser.TreeCursor, type: string, parent: Frame | undefined): void {
    const start = cursor.startIndex;
    const name = this.source.slice(start, cursor.endIndex);
    const scope = this.#scope();
    scope?.identifiers.add(name);
    if (!parent || this.#declaredNames.has(start)) return;
    const field = FIELD_PARENTS.has(parent.type) ? (cursor.currentFieldName ?? null) : null;
    if (type === 'identifier' && field === 'pattern' && PATTERN_HOSTS.has(parent.type)) {
      this.#declare(name);
      return;
    }
    // `Self` is the impl's type: a rename of the type leaves it alone
    if (name === 'Self' || (parent.type === 'use_as_clause' && field === 'alias')) return;
    let context: ReferenceContext = type === 'type_identifier' ? 'type' : 'value';
    let qualifier: string | null = null;
    if (parent.type === 'shorthand_field_initializer' || type === 'shorthand_field_identifier') {
      // `S { name }` / `let S { name } = s`: a use (or binding) of a local, and the field `name` of `S`
      if (type === 'shorthand_field_identifier') this.#declare(name);
      context = 'member';
      qualifier = this.#structExpressions[this.#structExpressions.length - 1] ?? null;
    } else if (parent.type === 'token_tree' && this.#macroArgument(start, name)) {
      return;
    } else if (this.#useDepth > 0) {
      context = 'import';
      // the name a `use` binds resolves like a bare name; a path segment before it is qualified
      if (parent.type === 'scoped_identifier' && field === 'name' && parent.field === 'path')
        qualifier = this.#pathQualifier(parent.start, start);
    } else if (this.#patternDepth > 0 && type === 'identifier' && !isUpper(name) && this.#binds(parent, field)) {
      this.#declare(name);
      return;
    } else if (parent.type === 'scoped_identifier' || parent.type === 'scoped_type_identifier') {
      if (field === 'name') {
        qualifier = this.#pathQualifier(parent.start, start);
        if (parent.field === 'path') context = isUpper(name) ? 'type' : 'value';
        else {
          context = this.#pathContext(2, context);
          if (qualifier !== null) this.#pathImportAt(qualifier, start);
        }
      } else context = isUpper(name) ? 'type' : 'value';
    } else if (parent.type === 'field_expression' && field === 'field') {
      qualifier = oneLine(this.source.slice(parent.start, start).replace(/\.\s*$/, ''), 120);
      const grand = this.frames.up(2);
      // `x.f()`, or `x.f::<T>()` through a generic function
      const called =
        parent.field === 'function' &&
        (grand?.type === 'call_expression' ||
          (grand?.type === 'generic_function' && this.frames.up(3)?.type === 'call_expression'));
      context = called ? 'call' : 'member';
    } else if (parent.type === 'call_expression' && field === 'function') context = 'call';
    else if (parent.type === 'macro_invocation' && field === 'macro') context = 'call';
    else if (parent.type === 'generic_function' && field === 'function') context = this.#pathContext(2, context);
    else if (parent.type === 'field_initializer' && field === 'field') {
      context = 'member';
      qualifier = this.#structExpressions[this.#structExpressions.length - 1] ?? null;
    } else if (parent.type === 'field_pattern' && field === 'name') return;
    if (
      qualifier === null &&
      (context === 'value' || context === 'call') &&
      type !== 'field_identifier' &&
      this.#isLocal(name)
    )
      return;
    this.reference(name, start, context, qualifier, this.#enclosing());
  }

  /**
   * An identifier in a macro's arguments (`println!("{}", util::square(x))`), which the grammar
   * leaves as tokens: its path, member access and call are read from the text around it. Returns
   * false when the identifier is a plain value (the caller records it).
   */
  #macroArgument(start: number, name: string): boolean {
    const source = this.source;
    let back = start - 1;
    while (back >= 0 && (source.charCodeAt(back) === 32 || source.charCodeAt(back) === 10)) back--;
    const joined = back >= 0 && (source[back] === ':' || source[back] === '.');
    let ahead = start + name.length;
    while (ahead < source.length && source.charCodeAt(ahead) === 32) ahead++;
    // a plain token (neither after `::`/`.` nor called): the common case, decided without a regular expression
    if (!joined && source[ahead] !== '(' && source[ahead] !== ':') return false;
    const low = Math.max(0, start - 200);
    const after = this.source.slice(start + name.length, start + name.length + 40);
    const called = /^\s*(?:::\s*<[^>]*>\s*)?\(/.test(after);
    const pathStart = pathStartBefore(source, start, low);
    // `x.name` or `f(..).name`: the qualifier is the identifier before the dot, else the expression is unknown
    const member = pathStart >= 0 ? null : memberOperandBefore(source, start, low);
    if (pathStart < 0 && !member && !called) return false;
    if (pathStart < 0 && !member && this.#isLocal(name)) return true;
    let qualifier: string | null = null;
    let context: ReferenceContext = called ? 'call' : 'value';
    if (pathStart >= 0) {
      qualifier = this.#pathQualifier(pathStart, start);
      if (qualifier !== null) this.#pathImportAt(qualifier, start);
    } else if (member) {
      qualifier = /^\w/.test(member) ? member : '(…)';
      if (!called) context = 'member';
    }
    this.reference(name, start, context, qualifier, this.#enclosing());
    return true;
  }

  /** The context of a whole path by its parent (`depth` frames up): called, a type, or a value. */
  #pathContext(depth: number, fallback: ReferenceContext): ReferenceContext {
    const holder = this.frames.up(depth);
    const inner = this.frames.up(depth - 1);
    if (!holder || !inner) return fallback;
    if (holder.type === 'call_expression' && inner.field === 'function') return 'call';
    if (holder.type === 'macro_invocation' && inner.field === 'macro') return 'call';
    if (holder.type === 'generic_function') return this.#pathContext(depth + 1, fallback);
    return fallback;
  }

  /** Whether an identifier under a pattern binds a local (not the path of `Some(x)` or a struct pattern's type). */
  #binds(parent: { type: string }, field: string | null): boolean {
    if (parent.type === 'scoped_identifier' || parent.type === 'scoped_type_identifier') return false;
    if ((parent.type === 'tuple_struct_pattern' || parent.type === 'struct_pattern') && field === 'type') return false;
    if (parent.type === 'call_expression' || parent.type === 'macro_invocation') return false;
    return true;
  }

  #declare(name: string): void {
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const locals = this.#scopes[i]!.locals;
      if (locals) {
        locals.add(name);
        return;
      }
    }
  }

  #isLocal(name: string): boolean {
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const scope = this.#scopes[i]!;
      if (scope.locals?.has(name)) return true;
      if (scope.role !== 'fn') return false;
    }
    return false;
  }

  /**
   * A path's qualifier in the index's dotted form: `a::b::` → `a.b`, `Self` → the impl's type, a
   * leading `self::` dropped (it names this module). Null when nothing qualifies the name.
   */
  #pathQualifier(pathStart: number, nameStart: number): string | null {
    let text = this.source.slice(pathStart, nameStart).replace(/\s+/g, '').replace(/::$/, '');
    if (text.includes('<')) text = text.replace(/<[^]*?>/g, '').replace(/::::/g, '::');
    text = text.replace(/^::/, '');
    if (text === '' || text === 'self') return null;
    if (text.startsWith('self::')) text = text.slice(6);
    const segments = text.split('::');
    if (segments[0] === 'Self') {
      const self = this.#selfType();
      if (self) segments[0] = self;
    }
    return segments.join('.');
  }

  /**
   * A path into a module (`crate::util::f()`, `util::f()` under `mod util;`, `super::f()`) is an
   * import of that module: one namespace import per distinct path, bound under the dotted
   * qualifier the references carry, so the index resolves `f` in that module's file.
   */
  #pathImportAt(qualifier: string, offset: number): void {
    const segments = qualifier.split('.');
    const first = segments[0]!;
    if (isUpper(first) || STD_ROOTS.has(first)) return;
    // `Type.method` after a module path: the module is the part before the first type
    const typeAt = segments.findIndex((segment) => isUpper(segment));
    if (typeAt === 0) return;
    const modulePath = typeAt > 0 ? segments.slice(0, typeAt) : segments;
    const local = modulePath.join('.');
    if (this.#pathImports.has(local)) return;
    let specifier: string;
    const bound = this.#useBindings.get(first);
    if (first === 'crate' || first === 'super') specifier = this.#rebase(modulePath.join('::'));
    else if (bound !== undefined) {
      if (modulePath.length === 1) return; // the `use` binding itself resolves it
      specifier = [bound, ...modulePath.slice(1)].join('::');
    } else if (this.#fileModules.has(first) && this.#inlineModules === 0) specifier = `self::${modulePath.join('::')}`;
    else specifier = modulePath.join('::');
    this.#pathImports.add(local);
    this.imports.push({
      specifier,
      kind: 'import',
      bindings: [{ imported: '*', local }],
      star: false,
      line: this.lines.point(offset).row + 1,
    });
  }

  /** Inside inline `mod` blocks, the first `super::`s name this file's own module (`self`). */
  #rebase(path: string): string {
    let rest = path;
    for (let i = 0; i < this.#inlineModules && rest.startsWith('super'); i++)
      rest = rest === 'super' ? 'self' : rest.startsWith('super::') ? `self::${rest.slice(7)}` : rest;
    return rest.replace(/^self::self\b/, 'self');
  }

  /** Every path a `use` tree names: `{ path, local }` (local null for `_`, `*` for a glob). */
  #useTree(node: SyntaxNode, prefix: string): Array<{ path: string; local: string | null; glob: boolean }> {
    const join = (a: string, b: string) => (a === '' ? b : `${a}::${b}`);
    switch (node.type) {
      case 'identifier':
      case 'crate':
      case 'super':
      case 'self':
      case 'metavariable': {
        const text = node.text;
        if (text === 'self' && prefix !== '') return [{ path: prefix, local: prefix.split('::').pop()!, glob: false }];
        return [{ path: join(prefix, text), local: text, glob: false }];
      }
      case 'scoped_identifier': {
        const text = node.text.replace(/\s+/g, '');
        const name = node.childForFieldName('name')?.text ?? text.split('::').pop()!;
        if (name === 'self')
          return [{ path: join(prefix, text.slice(0, -6)), local: text.split('::').at(-2) ?? null, glob: false }];
        return [{ path: join(prefix, text), local: name, glob: false }];
      }
      case 'use_as_clause': {
        const path = node.childForFieldName('path');
        const alias = node.childForFieldName('alias')?.text ?? null;
        if (!path) return [];
        return this.#useTree(path, prefix).map((entry) => ({ ...entry, local: alias === '_' ? null : alias }));
      }
      case 'use_wildcard': {
        const path = node.namedChildren[0];
        return [{ path: join(prefix, path ? path.text.replace(/\s+/g, '') : ''), local: null, glob: true }];
      }
      case 'scoped_use_list': {
        const path = node.childForFieldName('path');
        const list = node.childForFieldName('list');
        const inner = join(prefix, path ? path.text.replace(/\s+/g, '') : '');
        return list ? this.#useTree(list, inner) : [];
      }
      case 'use_list':
        return node.namedChildren.flatMap((child) => this.#useTree(child, prefix));
      default:
        return [];
    }
  }

  /**
   * `use a::b::c;` is either the item `c` of module `a::b` or the module `a::b::c`: it yields both
   * imports, and the pack resolves whichever names a file (a module's own import comes second and
   * wins when both do). `pub use` re-exports. A glob imports every public name of the module.
   */
  #use(node: SyntaxNode): void {
    const argument = node.childForFieldName('argument');
    if (!argument) return;
    const kind = node.firstNamedChild?.type === 'visibility_modifier' ? 'reexport' : 'import';
    const line = node.startPosition.row + 1;
    for (const entry of this.#useTree(argument, '')) {
      const path = this.#rebase(entry.path);
      if (entry.local) this.#useBindings.set(entry.local, path);
      if (entry.glob) {
        this.imports.push({ specifier: path, kind, bindings: [], star: true, line });
        continue;
      }
      const cut = path.lastIndexOf('::');
      const name = cut < 0 ? path : path.slice(cut + 2);
      if (cut >= 0 && name !== 'self')
        this.imports.push({
          specifier: path.slice(0, cut),
          kind,
          bindings: [{ imported: name, local: entry.local }],
          star: false,
          line,
        });
      // an upper-case name is a type, trait or constant, never a module
      if (!isUpper(name))
        this.imports.push({
          specifier: path,
          kind,
          bindings: [{ imported: '*', local: entry.local }],
          star: false,
          line,
        });
    }
  }

  #tokens(startIndex: number, endIndex: number, context: ReferenceContext): void {
    // Rust keeps docs and data in literals and comments (flag help, file-type tables): their words
    // join the enclosing definition's search words
    const scope = this.#scope();
    if (scope && !scope.test)
      for (const word of this.source.slice(startIndex, endIndex).match(WORD) ?? []) scope.identifiers.add(word);
    const enclosing = this.#enclosing();
    this.mentions(startIndex, endIndex, CODE_TOKEN, context, enclosing, undefined, CODE_TOKEN_CLUE);
  }
}

export function walkRust(tree: Parser.Tree, source: string): ExtractedFacts {
  return new RustWalker(source).walk(tree);
}
