// The contracts entry alone: index worker threads load this walker, and the full core costs ~0.4 s to import.
import { oneLine, spanBetween, SyntaxWalker, tokenSpan, WalkedNodeTypes } from '@agentgov/core/contracts';
import type {
  DefinitionKind,
  ExtractedDefinition,
  ExtractedFacts,
  ExtractedImport,
  ExtractedReference,
  ReferenceContext,
} from '@agentgov/core/contracts';
import type Parser from 'tree-sitter';

type SyntaxNode = Parser.SyntaxNode;

/** Declarations that open a type scope, and the definition kind each is. Records are classes with components. */
const TYPE_DECLARATIONS: Record<string, DefinitionKind> = {
  class_declaration: 'class',
  record_declaration: 'class',
  interface_declaration: 'interface',
  annotation_type_declaration: 'interface',
  enum_declaration: 'enum',
};
/** Parents whose identifier child in this field (null: any identifier child) declares a local name. */
const LOCAL_DECLARATIONS: Record<string, string | null> = {
  formal_parameter: 'name',
  spread_parameter: null,
  catch_formal_parameter: 'name',
  enhanced_for_statement: 'name',
  resource: 'name',
  inferred_parameters: null,
  type_pattern: null,
  record_pattern_component: null,
  instanceof_expression: 'name',
};
/** Parents under which an identifier's field name decides what it is (declared, called, a member, a type). */
const FIELD_PARENTS = new Set([
  ...Object.keys(LOCAL_DECLARATIONS),
  'lambda_expression',
  'variable_declarator',
  'method_invocation',
  'field_access',
  'object_creation_expression',
]);
/** Identifiers that are labels, not names of anything the index knows. */
const LABEL_PARENTS = new Set(['labeled_statement', 'break_statement', 'continue_statement']);
/** A comment/string token worth recording: looks like code (CamelCase, snake_case, a call, or `quoted`). */
const CODE_TOKEN = new RegExp(
  String.raw`[A-Za-z_][\w]*(?=\()|[A-Za-z_]*[a-z][A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|[A-Za-z]\w*_\w+|` +
    '`{1,2}[A-Za-z_]\\w*`{1,2}|' +
    String.raw`\{@(?:link|code)\s+[A-Za-z_][\w.#]*`,
  'g',
);
const UPPER_CASE_CONSTANT = /^[A-Z][A-Z0-9_]*$/;
/** What every CODE_TOKEN match contains: core's CODE_TOKEN_CLUE, and the `{` of `{@link`. */
const CODE_TOKEN_CLUE = /[(_`{]|[a-z][A-Z]/;

/** The node types the walk steps into: named ones with children, and the leaves it records. */
const NODE_TYPES = new WalkedNodeTypes([
  'identifier',
  'type_identifier',
  'line_comment',
  'block_comment',
  'string_fragment',
]);

/** `{@link Foo#bar}` mentions Foo and bar: each part of the target at its offset in the match. */
function linkTargets(match: string): Array<[number, string]> | null {
  if (!match.startsWith('{@')) return null;
  let offset = /\{@(?:link|code)\s+/.exec(match)![0].length;
  const parts: Array<[number, string]> = [];
  for (const part of match.slice(offset).split(/[.#]/)) {
    if (part) parts.push([offset, part]);
    offset += part.length + 1;
  }
  return parts;
}

interface Scope {
  qualifiedName: string;
  def: ExtractedDefinition;
  identifiers: Set<string>;
  /** A class, interface, enum or record: members are qualified by it. */
  isType: boolean;
  /** Parameters and local variables of a method, constructor or initializer (null for a type). */
  locals: Set<string> | null;
}

/** A bare name whose resolution waits for the whole file: it may be a member of its class declared further down. */
interface Pending {
  ref: ExtractedReference;
  /** Qualified name of the innermost enclosing type. */
  owner: string;
}

/** The Javadoc (`/** ... *\/`) right before a declaration, without its comment markers. */
function javadocOf(node: SyntaxNode, source: string): string | null {
  const previous = node.previousNamedSibling;
  if (!previous || previous.type !== 'block_comment') return null;
  return javadocBetween(source, previous.startIndex, previous.endIndex, node.startIndex);
}

/** The Javadoc of a declaration at `start` whose previous named sibling is the block comment `commentStart..End`. */
function javadocBetween(source: string, commentStart: number, commentEnd: number, start: number): string | null {
  if (source.slice(commentEnd, start).trim() !== '') return null;
  const text = source.slice(commentStart, commentEnd);
  if (!text.startsWith('/**')) return null;
  const body = text
    .slice(3, -2)
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, '').trimEnd())
    .join('\n')
    .trim();
  return body.length > 0 ? body : null;
}

function hasModifier(node: SyntaxNode, modifier: string): boolean {
  const modifiers = node.namedChildren.find((child) => child.type === 'modifiers');
  return modifiers ? modifiers.children.some((child) => child.type === modifier) : false;
}

const NO_MODIFIERS: ReadonlySet<string> = new Set();

/**
 * The modifier keywords and annotation types of the declaration the cursor is at, read through the cursor (the
 * grammar puts `modifiers` first, after any comment): no node objects, whose every read crosses into native code.
 */
function modifiersAt(cursor: Parser.TreeCursor): ReadonlySet<string> {
  if (!cursor.gotoFirstChild()) return NO_MODIFIERS;
  let found = NO_MODIFIERS;
  do {
    const type = cursor.nodeType;
    if (type === 'line_comment' || type === 'block_comment') continue;
    if (type === 'modifiers' && cursor.gotoFirstChild()) {
      const keywords = new Set<string>();
      do keywords.add(cursor.nodeType);
      while (cursor.gotoNextSibling());
      cursor.gotoParent();
      found = keywords;
    }
    break;
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
  return found;
}

/** What the walk read of a declaration through the cursor before its rule runs. */
interface Declaration {
  modifiers: ReadonlySet<string>;
  docstring: string | null;
}

/** Walks one Java syntax tree into definitions, references and imports. */
class JavaWalker extends SyntaxWalker<Parser.TreeCursor> {
  readonly #scopes: Scope[] = [];
  readonly #declaredNames = new Set<number>();
  readonly #pending: Pending[] = [];
  /** Simple names of every type declared in this file (nested ones too) and every type parameter. */
  readonly #localTypes = new Set<string>();
  /** Simple names bound by single-type imports and static imports. */
  readonly #imported = new Set<string>();
  /** Capitalised simple names used as types or qualifiers, with the line of their first use. */
  readonly #typeUses = new Map<string, number>();
  #package = '';
  #importDepth = 0;
  /** Depth of the node being visited, and per depth the type (and offsets) of the last named sibling visited. */
  #depth = 0;
  readonly #previousType: string[] = [''];
  readonly #previousStart: number[] = [0];
  readonly #previousEnd: number[] = [0];

  walk(tree: Parser.Tree): ExtractedFacts {
    NODE_TYPES.prepare(tree);
    this.visit(tree.walk());
    this.#settlePending();
    this.#implicitImports();
    return this.facts();
  }

  protected override visit(cursor: Parser.TreeCursor): void {
    const type = NODE_TYPES.of(cursor);
    if (type === '') return;
    if (type === 'identifier' || type === 'type_identifier') {
      this.#identifier(cursor, type === 'type_identifier');
      return;
    }
    const depth = this.#depth;
    const previousType = this.#previousType[depth];
    this.#previousType[depth] = type;
    switch (type) {
      case 'line_comment':
        this.#tokens(cursor.startIndex, cursor.endIndex, 'comment');
        return;
      case 'block_comment': {
        const start = cursor.startIndex;
        const end = cursor.endIndex;
        // A declaration's Javadoc, read when the declaration after it is visited.
        this.#previousStart[depth] = start;
        this.#previousEnd[depth] = end;
        this.#tokens(start, end, 'comment');
        return;
      }
      case 'string_fragment':
        this.#tokens(cursor.startIndex, cursor.endIndex, 'string');
        return;
    }
    const start = cursor.startIndex;
    let pushedScope = false;
    switch (type) {
      case 'package_declaration':
        this.#packageDeclaration(cursor.currentNode, this.#javadoc(previousType, depth, start));
        return;
      case 'import_declaration':
        this.#importDeclaration(cursor.currentNode);
        break;
      case 'class_declaration':
      case 'record_declaration':
      case 'interface_declaration':
      case 'annotation_type_declaration':
      case 'enum_declaration':
        pushedScope = this.#defineType(
          cursor.currentNode,
          TYPE_DECLARATIONS[type]!,
          this.#declaration(cursor, previousType, depth, start),
        );
        break;
      case 'method_declaration':
      case 'annotation_type_element_declaration':
        pushedScope = this.#defineMember(cursor, 'method', previousType, depth, start);
        break;
      case 'constructor_declaration':
      case 'compact_constructor_declaration':
        pushedScope = this.#defineMember(cursor, 'constructor', previousType, depth, start);
        break;
      case 'field_declaration':
      case 'constant_declaration':
        if (this.#inTypeBody())
          this.#defineFields(cursor.currentNode, this.#declaration(cursor, previousType, depth, start));
        break;
      case 'enum_constant':
        if (this.#typeScope() !== undefined)
          this.#defineEnumConstant(cursor.currentNode, this.#declaration(cursor, previousType, depth, start));
        break;
      case 'type_parameter':
        this.#typeParameter(cursor.currentNode);
        break;
      case 'static_initializer':
        pushedScope = this.#pushBlockScope();
        break;
    }
    if (type === 'import_declaration') this.#importDepth++;
    // No field name: each read crosses into native code, and identifiers ask their own where it matters.
    this.frames.push(type, null, start);
    this.#depth = depth + 1;
    this.#previousType[depth + 1] = '';
    this.visitChildren(cursor);
    this.#depth = depth;
    this.frames.pop();
    if (type === 'import_declaration') this.#importDepth--;
    if (pushedScope) {
      const scope = this.#scopes.pop()!;
      scope.def.bodyIdentifiers = [...scope.identifiers];
    }
  }

  /** The Javadoc of the node at `start` (at `depth`) from the last named sibling the walk visited before it. */
  #javadoc(previousType: string | undefined, depth: number, start: number): string | null {
    return previousType === 'block_comment'
      ? javadocBetween(this.source, this.#previousStart[depth]!, this.#previousEnd[depth]!, start)
      : null;
  }

  #declaration(cursor: Parser.TreeCursor, previousType: string | undefined, depth: number, start: number): Declaration {
    return { modifiers: modifiersAt(cursor), docstring: this.#javadoc(previousType, depth, start) };
  }

  #scope(): Scope | undefined {
    return this.#scopes[this.#scopes.length - 1];
  }

  /** The innermost enclosing type scope. */
  #typeScope(): Scope | undefined {
    for (let i = this.#scopes.length - 1; i >= 0; i--) if (this.#scopes[i]!.isType) return this.#scopes[i];
    return undefined;
  }

  /** Whether the innermost scope is a type (members are declared only there, not in anonymous class bodies). */
  #inTypeBody(): boolean {
    const parent = this.frames.up(1)?.type;
    return (
      this.#scope()?.isType === true &&
      (parent === 'class_body' ||
        parent === 'interface_body' ||
        parent === 'enum_body_declarations' ||
        parent === 'annotation_type_body' ||
        parent === 'enum_body')
    );
  }

  #packageDeclaration(node: SyntaxNode, docstring: string | null): void {
    const name = node.namedChildren.find((child) => child.type === 'scoped_identifier' || child.type === 'identifier');
    if (!name) return;
    this.#package = name.text.replace(/\s+/g, '');
    this.definitions.push({
      kind: 'module',
      name: this.#package,
      qualifiedName: this.#package,
      span: spanBetween(node.startPosition, node.endPosition),
      nameSpan: spanBetween(name.startPosition, name.endPosition),
      signature: oneLine(node.text),
      docstring,
      text: node.text,
      exported: true,
      isDefault: false,
      bodyIdentifiers: [],
    });
  }

  /** `declaration`: what the cursor read of `node`; null when `node` is not the cursor's (a record component). */
  #definition(
    node: SyntaxNode,
    nameNode: SyntaxNode,
    kind: DefinitionKind,
    signatureEnd: number,
    declaration: Declaration | null,
  ): ExtractedDefinition {
    this.#declaredNames.add(nameNode.startIndex);
    const name = nameNode.text;
    const scope = this.#scope();
    const owner = this.#typeScope();
    const def: ExtractedDefinition = {
      kind,
      name,
      qualifiedName: scope ? `${scope.qualifiedName}.${name}` : name,
      span: spanBetween(node.startPosition, node.endPosition),
      nameSpan: spanBetween(nameNode.startPosition, nameNode.endPosition),
      signature: oneLine(this.source.slice(node.startIndex, signatureEnd)),
      docstring: declaration ? declaration.docstring : javadocOf(node, this.source),
      text: node.text,
      // Top-level types are visible to their package at least; members unless private (or of a private owner).
      exported:
        !(declaration ? declaration.modifiers.has('private') : hasModifier(node, 'private')) &&
        (owner === undefined || owner.def.exported),
      isDefault: false,
      bodyIdentifiers: [],
    };
    this.definitions.push(def);
    return def;
  }

  #defineType(node: SyntaxNode, kind: DefinitionKind, declaration: Declaration): boolean {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return false;
    this.#localTypes.add(nameNode.text);
    const body = node.childForFieldName('body');
    const def = this.#definition(node, nameNode, kind, body ? body.startIndex : node.endIndex, declaration);
    this.#scopes.push({ qualifiedName: def.qualifiedName, def, identifiers: new Set(), isType: true, locals: null });
    // Record components are fields of the record.
    if (node.type === 'record_declaration') {
      const parameters = node.childForFieldName('parameters');
      for (const parameter of parameters?.namedChildren ?? []) {
        const componentName = parameter.childForFieldName('name');
        if (parameter.type === 'formal_parameter' && componentName) {
          this.#definition(parameter, componentName, 'field', parameter.endIndex, null);
        }
      }
    }
    return true;
  }

  #defineMember(
    cursor: Parser.TreeCursor,
    kind: DefinitionKind,
    previousType: string | undefined,
    depth: number,
    start: number,
  ): boolean {
    const owner = this.#typeScope();
    // A method of an anonymous class: its body is walked as part of the enclosing code.
    if (!this.#inTypeBody() || !owner) return this.#pushBlockScope();
    const node = cursor.currentNode;
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return this.#pushBlockScope();
    const declaration = this.#declaration(cursor, previousType, depth, start);
    const body = node.childForFieldName('body');
    const def = this.#definition(node, nameNode, kind, body ? body.startIndex : node.endIndex, declaration);
    this.#scopes.push({
      qualifiedName: def.qualifiedName,
      def,
      identifiers: new Set(),
      isType: false,
      locals: new Set(),
    });
    return true;
  }

  /**
   * An initializer block or anonymous-class method: locals of its own, no definition (enclosing stays the outer one).
   */
  #pushBlockScope(): boolean {
    const scope = this.#scope();
    if (!scope) return false;
    this.#scopes.push({ ...scope, identifiers: scope.identifiers, isType: false, locals: new Set(scope.locals ?? []) });
    return true;
  }

  /** A field or constant declaration in a type body (the caller checks that it is in one). */
  #defineFields(node: SyntaxNode, declaration: Declaration): void {
    const owner = this.#typeScope()!;
    const constant =
      node.type === 'constant_declaration' ||
      owner.def.kind === 'interface' ||
      (declaration.modifiers.has('static') && declaration.modifiers.has('final'));
    const declarators = node.namedChildren.filter((child) => child.type === 'variable_declarator');
    for (const declarator of declarators) {
      const nameNode = declarator.childForFieldName('name');
      if (!nameNode) continue;
      const kind: DefinitionKind = constant && UPPER_CASE_CONSTANT.test(nameNode.text) ? 'constant' : 'field';
      const value = declarator.childForFieldName('value');
      const def = this.#definition(node, nameNode, kind, value ? value.startIndex : node.endIndex, declaration);
      def.signature = def.signature.replace(/\s*=$/, '');
      // One declaration, several declarators: each is its own definition, named by its own declarator.
      if (declarators.length > 1) {
        def.signature = oneLine(`${this.source.slice(node.startIndex, declarators[0]!.startIndex)}${nameNode.text}`);
      }
    }
  }

  /** An enum constant (the caller checks that it is in a type). */
  #defineEnumConstant(node: SyntaxNode, declaration: Declaration): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    const body = node.childForFieldName('body');
    this.#definition(node, nameNode, 'constant', body ? body.startIndex : node.endIndex, declaration);
  }

  #typeParameter(node: SyntaxNode): void {
    const name = node.namedChildren.find((child) => child.type === 'type_identifier' || child.type === 'identifier');
    if (!name) return;
    this.#localTypes.add(name.text);
    this.#declaredNames.add(name.startIndex);
  }

  /**
   * `import a.b.C;` binds `C` (imported as `C`, or `Outer.Inner` for a nested type); `import a.b.*;`
   * makes a package's types visible (star); `import static a.b.C.m;` binds `m` as the member `C.m`;
   * `import static a.b.C.*;` is a star over `C`'s file. The specifier is the name as written.
   */
  #importDeclaration(node: SyntaxNode): void {
    const name = node.namedChildren.find((child) => child.type === 'scoped_identifier' || child.type === 'identifier');
    if (!name) return;
    const isStatic = node.children.some((child) => child.type === 'static');
    const star = node.namedChildren.some((child) => child.type === 'asterisk');
    const dotted = name.text.replace(/\s+/g, '');
    const parts = dotted.split('.');
    const firstType = parts.findIndex((part) => /^[A-Z$]/.test(part));
    const typeStart = firstType < 0 ? parts.length - (isStatic && !star ? 2 : star ? 1 : 1) : firstType;
    const typePath = parts.slice(Math.max(0, typeStart));
    const entry: ExtractedImport = {
      specifier: star ? `${dotted}.*` : dotted,
      kind: 'import',
      bindings: [],
      star,
      line: node.startPosition.row + 1,
    };
    if (star) {
      if (isStatic && typePath.length > 0) entry.bindings.push({ imported: typePath.join('.'), local: null });
    } else if (isStatic) {
      const member = parts[parts.length - 1]!;
      const owner = typePath.slice(0, -1);
      entry.bindings.push({ imported: [...owner, member].join('.'), local: member });
      if (owner.length > 0) entry.bindings.push({ imported: owner.join('.'), local: null });
      this.#imported.add(member);
    } else {
      const local = parts[parts.length - 1]!;
      entry.bindings.push({ imported: typePath.length > 0 ? typePath.join('.') : local, local });
      this.#imported.add(local);
    }
    this.imports.push(entry);
  }

  #identifier(cursor: Parser.TreeCursor, isType: boolean): void {
    const start = cursor.startIndex;
    const name = this.source.slice(start, cursor.endIndex);
    const scope = this.#scope();
    scope?.identifiers.add(name);
    if (this.#declaredNames.has(start)) return;
    const parent = this.frames.up(1);
    if (!parent) return;
    if (LABEL_PARENTS.has(parent.type)) return;
    const field = FIELD_PARENTS.has(parent.type) ? (cursor.currentFieldName ?? null) : null;
    const declares = LOCAL_DECLARATIONS[parent.type];
    if (declares !== undefined && (declares === null || declares === field) && !isType) {
      scope?.locals?.add(name);
      return;
    }
    if (parent.type === 'lambda_expression' && field === 'parameters') {
      scope?.locals?.add(name);
      return;
    }
    if (parent.type === 'variable_declarator' && field === 'name') {
      // `int a = …, b;` in a body declares locals, each from its own name on (Java's scope of a local)
      if (this.frames.up(2)?.type === 'local_variable_declaration') scope?.locals?.add(name);
      return;
    }
    if (this.#importDepth > 0) {
      this.#importReference(cursor, name, start, parent.type);
      return;
    }
    let context: ReferenceContext = isType ? 'type' : 'value';
    let qualifier: string | null = null;
    switch (parent.type) {
      case 'method_invocation':
        if (field === 'name') {
          context = 'call';
          qualifier = this.#qualifierBefore(parent.start, start);
        }
        break;
      case 'field_access':
        if (field === 'field') {
          context = 'member';
          qualifier = this.#qualifierBefore(parent.start, start);
        }
        break;
      case 'method_reference':
        if (start > parent.start) {
          context = 'member';
          qualifier = this.#qualifierBefore(parent.start, start, '::');
        }
        break;
      case 'scoped_type_identifier':
        if (start > parent.start) {
          qualifier = this.#qualifierBefore(parent.start, start);
        } else if (/^[a-z]/.test(name)) return; // a package segment of `java.util.List`
        break;
      case 'scoped_identifier':
        if (start > parent.start) qualifier = this.#qualifierBefore(parent.start, start);
        break;
      case 'object_creation_expression':
        if (field === 'type') context = 'call';
        break;
      case 'generic_type':
        if (this.frames.up(2)?.type === 'object_creation_expression') context = 'call';
        break;
      case 'marker_annotation':
      case 'annotation':
        context = 'type';
        break;
    }
    if (qualifier === null && !isType && context !== 'call' && this.#isLocal(name)) return;
    if (qualifier === null && context === 'call' && parent.type === 'method_invocation' && this.#isLocal(name)) return;
    const ref: ExtractedReference = {
      name,
      context,
      span: tokenSpan(this.lines.point(start), name.length),
      qualifier,
      enclosing: scope?.qualifiedName ?? null,
    };
    this.references.push(ref);
    if (
      qualifier === null &&
      /^[A-Z]/.test(name) &&
      (isType || context !== 'call' || parent.type !== 'method_invocation')
    ) {
      if (!this.#typeUses.has(name)) this.#typeUses.set(name, ref.span.startLine);
    }
    // A bare method call or field use may be a member of the enclosing class (declared anywhere in the file).
    if (qualifier === null && !isType && (context === 'call' || context === 'value')) {
      const owner = this.#typeScope();
      if (owner) this.#pending.push({ ref, owner: owner.qualifiedName });
    }
  }

  /** The object/scope text before `.name` (or `::name`), whitespace removed. */
  #qualifierBefore(parentStart: number, start: number, separator = '.'): string | null {
    const raw = this.source.slice(parentStart, start).trimEnd();
    if (!raw.endsWith(separator)) return null;
    const qualifier = raw
      .slice(0, -separator.length)
      .replace(/\s*\.\s*/g, '.')
      .trim();
    return qualifier.length > 0 ? qualifier : null;
  }

  /** Import statements: the type segment(s) and a static import's member are references; package segments are not. */
  #importReference(cursor: Parser.TreeCursor, name: string, start: number, parentType: string): void {
    if (!/^[A-Z$]/.test(name)) {
      // a member of `import static a.b.C.member;`: the last segment after a type
      const before = this.source.slice(this.frames.up(1)!.start, start);
      if (!/[A-Z$][\w$]*\.\s*$/.test(before)) return;
    }
    void cursor;
    void parentType;
    this.reference(name, start, 'import', null, null);
  }

  #isLocal(name: string): boolean {
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const scope = this.#scopes[i]!;
      if (scope.locals?.has(name)) return true;
      if (scope.isType) return false;
    }
    return false;
  }

  /**
   * `helper()` / `count` inside a class that declares them is `this.helper()` / `this.count` (or the static member).
   */
  #settlePending(): void {
    if (this.#pending.length === 0) return;
    const qualified = new Set(this.definitions.map((def) => def.qualifiedName));
    for (const { ref, owner } of this.#pending) {
      if (qualified.has(`${owner}.${ref.name}`)) ref.qualifier = 'this';
    }
  }

  /**
   * Java makes the types of a file's own package visible without an import: a capitalised name used
   * as a type or qualifier that this file neither declares nor imports gets an implicit import of
   * `<package>.<Name>`, which the pack's resolver keeps only when such a file exists.
   */
  #implicitImports(): void {
    const members = new Set(this.definitions.map((def) => def.name));
    for (const [name, line] of this.#typeUses) {
      if (this.#localTypes.has(name) || this.#imported.has(name) || members.has(name)) continue;
      this.imports.push({
        specifier: this.#package ? `${this.#package}.${name}` : name,
        kind: 'import',
        bindings: [{ imported: name, local: name }],
        star: false,
        line,
        implicit: true,
      });
    }
  }

  #tokens(startIndex: number, endIndex: number, context: ReferenceContext): void {
    const enclosing = this.#scope()?.qualifiedName ?? null;
    this.mentions(startIndex, endIndex, CODE_TOKEN, context, enclosing, linkTargets, CODE_TOKEN_CLUE);
  }
}

export function walkJava(tree: Parser.Tree, source: string): ExtractedFacts {
  return new JavaWalker(source).walk(tree);
}
