// The contracts entry alone: index worker threads load this walker, and the full core costs ~0.4 s to import.
import { childlessNodeTypes, FrameStack, LineIndex, oneLine, spanBetween, tokenSpan } from '@agentgov/core/contracts';
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

const IDENTIFIER_TYPES = new Set([
  'identifier',
  'property_identifier',
  'type_identifier',
  'shorthand_property_identifier',
  'private_property_identifier',
]);
/** Identifiers that name something being declared locally (parameters, patterns): not references. */
const DECLARING_PARENTS = new Set([
  'required_parameter',
  'optional_parameter',
  'formal_parameters',
  'object_pattern',
  'array_pattern',
  'pair_pattern',
  'rest_pattern',
  'assignment_pattern',
  'shorthand_property_identifier_pattern',
  'catch_clause',
  'type_parameter',
  'labeled_statement',
  'break_statement',
  'continue_statement',
]);
/** Parents under which an identifier's field name decides what it is (declared, called, a property, a key). */
const FIELD_PARENTS = new Set([
  'variable_declarator',
  'for_in_statement',
  'arrow_function',
  'call_expression',
  'new_expression',
  'member_expression',
  'pair',
  'import_specifier',
]);
/** Frames whose field name and start offset later lookups need (qualifier slicing, import sources). */
const FRAMED_TYPES = new Set(['member_expression', 'string', 'template_string']);
/** Frames whose start offset later lookups need: qualifier slicing, `export default`, `const`. */
const STARTED_TYPES = new Set([
  ...FRAMED_TYPES,
  'export_statement',
  'lexical_declaration',
  'variable_declaration',
  'import_statement',
]);
/** Wrappers a JSDoc comment sits above instead of the definition itself. */
const DOC_WRAPPERS = new Set(['export_statement', 'lexical_declaration', 'variable_declaration']);
const EXPORT_DEFAULT = /export\s+default\b/y;
const FUNCTION_VALUE_TYPES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
/** A comment/string token worth recording: looks like code (camelCase, snake_case, Pascal with a hump, or a call). */
const CODE_TOKEN = /[A-Za-z_$][\w$]*(?=\s*\()|[A-Za-z_$]*[a-z][A-Z][\w$]*|[A-Za-z$][\w$]*_[\w$]+|`[A-Za-z_$][\w$]*`/g;

/** What the walk does at a node; decided once per grammar node type. */
const LEAF = 0;
const IDENTIFIER = 1;
const COMMENT = 2;
const STRING_FRAGMENT = 3;
const INNER = 4;

interface NodeKind {
  type: string;
  role: typeof LEAF | typeof IDENTIFIER | typeof COMMENT | typeof STRING_FRAGMENT | typeof INNER;
  /** Its field name is read (FRAMED_TYPES). */
  framed: boolean;
  /** Its start offset is read (STARTED_TYPES). */
  started: boolean;
  /** Goes through the switch in #visit: imports, exports, definitions, function values. */
  special: boolean;
}

/**
 * Types #visit's switch acts on: imports, exports, CommonJS assignments, and (through #maybeDefinition) definitions and
 * function values.
 */
const SPECIAL_TYPES = new Set([
  'import',
  'import_statement',
  'import_specifier',
  'string',
  'export_statement',
  'assignment_expression',
  'function_declaration',
  'generator_function_declaration',
  'class_declaration',
  'abstract_class_declaration',
  'method_definition',
  'abstract_method_signature',
  'public_field_definition',
  'interface_declaration',
  'type_alias_declaration',
  'enum_declaration',
  'internal_module',
  'module',
  'variable_declarator',
  ...FUNCTION_VALUE_TYPES,
]);

/** Per grammar (type ids differ between TypeScript, TSX and JavaScript): node kinds by type id. */
interface GrammarKinds {
  kinds: NodeKind[];
  childless: Set<string>;
}
const GRAMMAR_KINDS = new WeakMap<object, GrammarKinds>();

function nodeKind(type: string, named: boolean, childless: Set<string>): NodeKind {
  const kind: NodeKind = {
    type,
    role: INNER,
    framed: FRAMED_TYPES.has(type),
    started: STARTED_TYPES.has(type),
    special: SPECIAL_TYPES.has(type),
  };
  if (IDENTIFIER_TYPES.has(type)) kind.role = IDENTIFIER;
  else if (type === 'comment') kind.role = COMMENT;
  else if (type === 'string_fragment') kind.role = STRING_FRAGMENT;
  // Anonymous tokens (punctuation, keywords: 43% of the nodes of a TypeScript file) are leaves;
  // `import` is one when it is the callee of `import('x')`.
  else if (type !== 'import' && (!named || childless.has(type))) kind.role = LEAF;
  return kind;
}

/** An import statement being walked: its entry fills in as the walk passes its clause and source. */
interface OpenImport {
  entry: ExtractedImport;
  /** Set once the walk passed the `source` string: an import without one (`import x = require()`) records nothing. */
  hasSource: boolean;
  /** The `{ name as alias }` being walked. */
  specifier: { imported: string; local: string | null } | null;
}

interface Scope {
  qualifiedName: string;
  def: ExtractedDefinition | null;
  identifiers: Set<string> | null;
  isClass: boolean;
  /** An unnamed function (callback, IIFE): holds locals, names nothing. */
  anonymous: boolean;
  /** Parameters and variables declared inside a function: their uses reference no definition. */
  locals: Set<string> | null;
}

function unquote(text: string): string {
  return text.replace(/^['"`]|['"`]$/g, '');
}

/**
 * JSDoc immediately above `node` (or above its `export` wrapper), without the comment markers.
 * `wrappers`: how many wrapper ancestors to climb, when the walk already knows (each `parent` is a
 * native call that searches down from the root).
 */
function jsDocOf(node: SyntaxNode, wrappers: number | null): string | null {
  let anchor: SyntaxNode = node;
  if (wrappers !== null) for (let i = 0; i < wrappers; i++) anchor = anchor.parent!;
  else while (anchor.parent && DOC_WRAPPERS.has(anchor.parent.type)) anchor = anchor.parent;
  const previous = anchor.previousSibling;
  if (!previous || previous.type !== 'comment' || !previous.text.startsWith('/**')) return null;
  if (anchor.startPosition.row - previous.endPosition.row > 1) return null;
  const body = previous.text
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, '').trimEnd())
    .join('\n')
    .trim();
  return body.length > 0 ? body : null;
}

/** Walks one ECMAScript-family syntax tree (TS, TSX, JS) into definitions, references and imports. */
export class EcmascriptWalker {
  readonly #source: string;
  readonly #lines: LineIndex;
  readonly #definitions: ExtractedDefinition[] = [];
  readonly #references: ExtractedReference[] = [];
  readonly #imports: ExtractedImport[] = [];
  readonly #localExports: Array<{ exported: string; local: string }> = [];
  /** Ancestor frames, one object per depth reused across the walk. */
  readonly #frames = new FrameStack();
  readonly #scopes: Scope[] = [];
  /** Start offsets of name tokens of definitions: skipped as references. */
  readonly #declaredNames = new Set<number>();
  #grammar: GrammarKinds = { kinds: [], childless: new Set() };
  #import: OpenImport | null = null;

  constructor(source: string) {
    this.#source = source;
    this.#lines = new LineIndex(source);
  }

  walk(tree: Parser.Tree): ExtractedFacts {
    const language = (tree as unknown as { language: object }).language;
    let grammar = GRAMMAR_KINDS.get(language);
    if (!grammar) GRAMMAR_KINDS.set(language, (grammar = { kinds: [], childless: childlessNodeTypes(language) }));
    this.#grammar = grammar;
    const cursor = tree.walk();
    this.#visit(cursor);
    return {
      definitions: this.#definitions,
      references: this.#references,
      imports: this.#imports,
      localExports: this.#localExports,
    };
  }

  #visit(cursor: Parser.TreeCursor): void {
    // A type id is a number; the type name would be a new string from native code at every node.
    const typeId = cursor.nodeTypeId;
    const { kinds } = this.#grammar;
    let kind = kinds[typeId];
    if (kind === undefined)
      kind = kinds[typeId] = nodeKind(cursor.nodeType, cursor.nodeIsNamed, this.#grammar.childless);
    switch (kind.role) {
      case LEAF:
        return;
      case IDENTIFIER:
        this.#identifier(cursor, kind.type);
        return;
      case COMMENT:
        this.#tokens(cursor.startIndex, cursor.endIndex, 'comment');
        return;
      case STRING_FRAGMENT:
        if (!this.#inImportSource()) this.#tokens(cursor.startIndex, cursor.endIndex, 'string');
        return;
    }
    const type = kind.type;
    // Each cursor getter crosses into native code: read field and offset only where they are used
    // (a member expression's field only matters under a call: `a.b()` is a call of `b`).
    const field =
      kind.framed && (type !== 'member_expression' || this.#frames.up(1)?.type === 'call_expression')
        ? (cursor.currentFieldName ?? null)
        : null;
    const start = kind.started ? cursor.startIndex : 0;
    let pushedScope = false;
    let frameType = type;

    if (kind.special)
      switch (type) {
        case 'import':
          // `import('x')`: the keyword is the callee of a call expression.
          if (this.#frames.up(1)?.type === 'call_expression') this.#maybeRequire(cursor.currentNode.parent!);
          break;
        case 'import_statement':
          this.#import = {
            entry: { specifier: '', kind: 'import', bindings: [], star: false, line: this.#lines.point(start).row + 1 },
            hasSource: false,
            specifier: null,
          };
          break;
        case 'import_specifier':
          if (this.#import) this.#import.specifier = { imported: '', local: null };
          break;
        case 'string':
          if (this.#import) this.#importString(field, start, cursor.endIndex);
          break;
        case 'export_statement':
          if (this.#exportStatement(cursor.currentNode)) frameType = 'export_from_statement';
          break;
        case 'assignment_expression':
          if (this.#scopes.length === 0) pushedScope = this.#commonJsExport(cursor.currentNode);
          break;
        default:
          pushedScope = this.#maybeDefinition(cursor, type);
          if (!pushedScope && FUNCTION_VALUE_TYPES.has(type)) {
            this.#scopes.push({
              qualifiedName: '',
              def: null,
              identifiers: null,
              isClass: false,
              anonymous: true,
              locals: new Set(),
            });
            pushedScope = true;
          }
      }

    this.#frames.push(frameType, field, start);
    if (cursor.gotoFirstChild()) {
      do this.#visit(cursor);
      while (cursor.gotoNextSibling());
      cursor.gotoParent();
    }
    this.#frames.pop();
    if (this.#import && kind.special) this.#closeImportPart(type);
    if (pushedScope) {
      const scope = this.#scopes.pop();
      if (scope?.def && scope.identifiers) scope.def.bodyIdentifiers = [...scope.identifiers];
    }
  }

  /** The innermost named scope (definition or namespace); anonymous functions are transparent. */
  #scope(): Scope | undefined {
    for (let i = this.#scopes.length - 1; i >= 0; i--) if (!this.#scopes[i]!.anonymous) return this.#scopes[i];
    return undefined;
  }

  #qualify(name: string): string {
    const scope = this.#scope();
    return scope ? `${scope.qualifiedName}.${name}` : name;
  }

  #atModuleLevel(): boolean {
    const top = this.#scopes[this.#scopes.length - 1];
    return top === undefined || (top.def === null && !top.isClass && !top.anonymous);
  }

  #declareLocal(name: string): void {
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const locals = this.#scopes[i]!.locals;
      if (locals) {
        locals.add(name);
        return;
      }
    }
  }

  #isLocal(name: string): boolean {
    for (let i = this.#scopes.length - 1; i >= 0; i--) if (this.#scopes[i]!.locals?.has(name)) return true;
    return false;
  }

  #maybeDefinition(cursor: Parser.TreeCursor, type: string): boolean {
    switch (type) {
      case 'function_declaration':
      case 'generator_function_declaration':
        return this.#define(cursor.currentNode, 'function', false);
      case 'class_declaration':
      case 'abstract_class_declaration':
        return this.#define(cursor.currentNode, 'class', true);
      case 'method_definition':
      case 'abstract_method_signature':
        return this.#scope()?.isClass ? this.#define(cursor.currentNode, 'method', false) : false;
      case 'public_field_definition': {
        const node = cursor.currentNode;
        const value = node.childForFieldName('value');
        if (this.#scope()?.isClass && value && FUNCTION_VALUE_TYPES.has(value.type))
          return this.#define(node, 'method', false, value);
        const name = node.childForFieldName('name');
        if (name) this.#declaredNames.add(name.startIndex);
        return false;
      }
      case 'interface_declaration':
        return this.#define(cursor.currentNode, 'interface', false);
      case 'type_alias_declaration':
        return this.#define(cursor.currentNode, 'type', false);
      case 'enum_declaration':
        return this.#define(cursor.currentNode, 'enum', false);
      case 'internal_module':
      case 'module': {
        const name = cursor.currentNode.childForFieldName('name');
        if (!name || name.type === 'string') return false;
        this.#declaredNames.add(name.startIndex);
        this.#scopes.push({
          qualifiedName: this.#qualify(name.text),
          def: null,
          identifiers: null,
          isClass: false,
          anonymous: false,
          locals: null,
        });
        return true;
      }
      case 'variable_declarator':
        // Inside a function a declarator defines nothing; its name identifier declares the local.
        return this.#atModuleLevel() ? this.#variable(cursor.currentNode) : false;
      default:
        return false;
    }
  }

  #variable(node: SyntaxNode): boolean {
    const name = node.childForFieldName('name');
    if (!name || name.type !== 'identifier') return false;
    // `node` is the cursor's node: its ancestors are the frames.
    const declaration = this.#frames.up(1);
    const container = this.#frames.up(2)?.type === 'export_statement' ? this.#frames.up(3) : this.#frames.up(2);
    const moduleLevel =
      this.#atModuleLevel() &&
      (container?.type === 'program' || (container?.type === 'statement_block' && this.#scope() !== undefined));
    if (!moduleLevel) {
      this.#declaredNames.add(name.startIndex);
      this.#declareLocal(name.text);
      return false;
    }
    const value = node.childForFieldName('value');
    const callee = value?.type === 'call_expression' ? value.childForFieldName('function') : null;
    if (callee && callee.type === 'identifier' && callee.text === 'require') {
      // `const x = require('y')` binds an import (recorded by #maybeRequire), it defines nothing.
      this.#declaredNames.add(name.startIndex);
      return false;
    }
    const declarationStart =
      declaration && STARTED_TYPES.has(declaration.type) ? declaration.start : (node.parent?.startIndex ?? -1);
    let kind: DefinitionKind =
      declarationStart >= 0 && this.#source.startsWith('const', declarationStart) ? 'constant' : 'variable';
    if (value && FUNCTION_VALUE_TYPES.has(value.type)) kind = 'function';
    else if (value && value.type === 'class') kind = 'class';
    return this.#define(
      node,
      kind,
      kind === 'class',
      value && (FUNCTION_VALUE_TYPES.has(value.type) || value.type === 'class') ? value : null,
    );
  }

  /**
   * Records a definition for `node` and opens its scope. `head` is the node whose body ends the
   * signature. `atCursor`: `node` is the cursor's node, so its ancestors are the frames.
   */
  #define(
    node: SyntaxNode,
    kind: DefinitionKind,
    isClass: boolean,
    head: SyntaxNode | null = null,
    explicitName: SyntaxNode | null = null,
    atCursor = true,
  ): boolean {
    const nameNode = explicitName ?? node.childForFieldName('name');
    if (!nameNode) return false;
    this.#declaredNames.add(nameNode.startIndex);
    const name = nameNode.text;
    const body = (head ?? node).childForFieldName('body');
    const signatureEnd = body && kind !== 'type' && kind !== 'enum' ? body.startIndex : node.endIndex;
    let exportStart = -1;
    let wrappers: number | null = null;
    if (atCursor) {
      const parent = this.#frames.up(1);
      const grand = this.#frames.up(2);
      if (parent?.type === 'export_statement') exportStart = parent.start;
      else if (grand?.type === 'export_statement') exportStart = grand.start;
      wrappers = 0;
      while (DOC_WRAPPERS.has(this.#frames.up(wrappers + 1)?.type ?? '')) wrappers++;
    } else {
      const exportParent =
        node.parent?.type === 'export_statement'
          ? node.parent
          : node.parent?.parent?.type === 'export_statement'
            ? node.parent.parent
            : null;
      if (exportParent) exportStart = exportParent.startIndex;
    }
    EXPORT_DEFAULT.lastIndex = Math.max(exportStart, 0);
    const exportsDefault = exportStart >= 0 && EXPORT_DEFAULT.test(this.#source);
    const parentScope = this.#scope();
    const def: ExtractedDefinition = {
      kind,
      name,
      qualifiedName: this.#qualify(name),
      span: spanBetween(node.startPosition, node.endPosition),
      nameSpan: spanBetween(nameNode.startPosition, nameNode.endPosition),
      signature: oneLine(this.#source.slice(node.startIndex, signatureEnd)),
      docstring: jsDocOf(node, wrappers),
      text: node.text,
      exported: exportStart >= 0 || explicitName !== null || (parentScope?.def?.exported ?? false),
      isDefault: exportsDefault || (explicitName !== null && explicitName.type === 'identifier'),
      bodyIdentifiers: [],
    };
    this.#definitions.push(def);
    this.#scopes.push({
      qualifiedName: def.qualifiedName,
      def,
      identifiers: new Set(),
      isClass,
      anonymous: false,
      locals: isClass ? null : new Set(),
    });
    return true;
  }

  #identifier(cursor: Parser.TreeCursor, type: string): void {
    const start = cursor.startIndex;
    const name = this.#source.slice(start, cursor.endIndex);
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const identifiers = this.#scopes[i]!.identifiers;
      if (identifiers) {
        identifiers.add(name);
        break;
      }
    }
    const parent = this.#frames.up(1);
    if (!parent) return;
    const field = FIELD_PARENTS.has(parent.type) ? (cursor.currentFieldName ?? null) : null;
    if (this.#import) this.#importBinding(parent.type, field, name);
    if (field === 'function' && name === 'require' && parent.type === 'call_expression')
      this.#maybeRequire(cursor.currentNode.parent!);
    const declares =
      DECLARING_PARENTS.has(parent.type) ||
      type === 'shorthand_property_identifier_pattern' ||
      (parent.type === 'variable_declarator' && field === 'name') ||
      (parent.type === 'for_in_statement' && field === 'left') ||
      (parent.type === 'arrow_function' && field === 'parameter');
    if (declares) {
      if (!this.#declaredNames.has(start)) this.#declareLocal(name);
      return;
    }
    if (this.#declaredNames.has(start)) return;
    if (
      parent.type === 'public_field_definition' ||
      parent.type === 'property_signature' ||
      parent.type === 'method_signature'
    )
      return;
    let context: ReferenceContext = 'value';
    let qualifier: string | null = null;
    if (
      type === 'type_identifier' ||
      parent.type === 'nested_type_identifier' ||
      parent.type === 'generic_type' ||
      parent.type === 'type_query'
    )
      context = 'type';
    else if (
      parent.type === 'import_specifier' ||
      parent.type === 'import_clause' ||
      parent.type === 'namespace_import' ||
      parent.type === 'namespace_export' ||
      (parent.type === 'export_specifier' && this.#inExportFrom())
    )
      context = 'import';
    else if (
      (parent.type === 'call_expression' && field === 'function') ||
      (parent.type === 'new_expression' && field === 'constructor')
    )
      context = 'call';
    else if (parent.type === 'member_expression' && field === 'property') {
      qualifier = this.#source
        .slice(parent.start, start)
        .replace(/\??\.\s*$/, '')
        .trim();
      const grand = this.#frames.up(2);
      context = grand && grand.type === 'call_expression' && parent.field === 'function' ? 'call' : 'member';
    } else if (parent.type === 'pair' && field === 'key') context = 'member';
    if (qualifier === null && (context === 'value' || context === 'call') && this.#isLocal(name)) return;
    this.#references.push({
      name,
      context,
      span: tokenSpan(this.#lines.point(start), name.length),
      qualifier,
      enclosing: this.#enclosing(),
    });
  }

  /** Qualified name of the innermost enclosing definition. */
  #enclosing(): string | null {
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const def = this.#scopes[i]!.def;
      if (def) return def.qualifiedName;
    }
    return null;
  }

  #inImportSource(): boolean {
    const string = this.#frames.up(1);
    const holder = this.#frames.up(2);
    if (!string || !holder) return false;
    if (string.field === 'source') return true;
    return holder.type === 'arguments' && this.#frames.up(3)?.type === 'call_expression';
  }

  #inExportFrom(): boolean {
    return this.#frames.has('export_from_statement');
  }

  /** Code-looking tokens inside a comment or string, as low-certainty mentions. */
  #tokens(startIndex: number, endIndex: number, context: ReferenceContext): void {
    const text = this.#source.slice(startIndex, endIndex);
    CODE_TOKEN.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = CODE_TOKEN.exec(text)) !== null) {
      const raw = match[0];
      const token = raw.startsWith('`') ? raw.slice(1, -1) : raw;
      const offset = match.index + (raw.startsWith('`') ? 1 : 0);
      this.#references.push({
        name: token,
        context,
        // from the line index: splitting the text before each token is quadratic in a long docstring
        span: tokenSpan(this.#lines.point(startIndex + offset), token.length),
        qualifier: null,
        enclosing: this.#enclosing(),
      });
    }
  }

  /** An import's `source` string, or a quoted name in `{ 'a-b' as c }`. */
  #importString(field: string | null, start: number, end: number): void {
    const open = this.#import!;
    const parent = this.#frames.up(1)?.type;
    if (field === 'source' && parent === 'import_statement') {
      open.entry.specifier = unquote(this.#source.slice(start, end));
      open.hasSource = true;
    } else if (field === 'name' && parent === 'import_specifier' && open.specifier)
      open.specifier.imported = this.#source.slice(start, end);
  }

  /** An identifier inside an import statement: the default, namespace or named binding it makes. */
  #importBinding(parent: string, field: string | null, name: string): void {
    const open = this.#import!;
    if (parent === 'import_clause') open.entry.bindings.push({ imported: 'default', local: name });
    else if (parent === 'namespace_import') open.entry.bindings.push({ imported: '*', local: name });
    else if (parent === 'import_specifier' && open.specifier) {
      if (field === 'name') open.specifier.imported = name;
      else if (field === 'alias') open.specifier.local = name;
    }
  }

  /** Leaving an import statement records it; leaving one of its specifiers records the binding. */
  #closeImportPart(type: string): void {
    const open = this.#import!;
    if (type === 'import_statement') {
      if (open.hasSource) this.#imports.push(open.entry);
      this.#import = null;
    } else if (type === 'import_specifier' && open.specifier) {
      const { imported, local } = open.specifier;
      if (imported) open.entry.bindings.push({ imported, local: local ?? imported });
      open.specifier = null;
    }
  }

  /** Records what an export statement exports; true when it re-exports from another module. */
  #exportStatement(node: SyntaxNode): boolean {
    const source = node.childForFieldName('source');
    const clause = node.namedChildren.find((child) => child.type === 'export_clause');
    if (source) {
      const entry: ExtractedImport = {
        specifier: unquote(source.text),
        kind: 'reexport',
        bindings: [],
        star: false,
        line: node.startPosition.row + 1,
      };
      const namespace = node.namedChildren.find((child) => child.type === 'namespace_export');
      if (namespace) entry.bindings.push({ imported: '*', local: namespace.namedChildren[0]?.text ?? null });
      else if (!clause) entry.star = true;
      for (const specifier of clause?.namedChildren ?? []) {
        const imported = specifier.childForFieldName('name')?.text;
        if (imported) entry.bindings.push({ imported, local: specifier.childForFieldName('alias')?.text ?? imported });
      }
      this.#imports.push(entry);
      return true;
    }
    for (const specifier of clause?.namedChildren ?? []) {
      const local = specifier.childForFieldName('name')?.text;
      if (local) this.#localExports.push({ exported: specifier.childForFieldName('alias')?.text ?? local, local });
    }
    const value = node.childForFieldName('value');
    if (value?.type === 'identifier') this.#localExports.push({ exported: 'default', local: value.text });
    return false;
  }

  /**
   * CommonJS exports at module level: `exports.f = …` / `module.exports.f = …` define `f`;
   * `module.exports = function f() {}` defines a default-exported `f`; `module.exports = name`
   * and `module.exports = { a, b: c }` export local names.
   */
  #commonJsExport(node: SyntaxNode): boolean {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (!left || !right || left.type !== 'member_expression') return false;
    const target = left.childForFieldName('object')?.text;
    const property = left.childForFieldName('property');
    if (!property) return false;
    const kindOf = (value: SyntaxNode): DefinitionKind =>
      FUNCTION_VALUE_TYPES.has(value.type) ? 'function' : value.type === 'class' ? 'class' : 'variable';
    if ((target === 'exports' || target === 'module.exports') && property.type === 'property_identifier') {
      const kind = kindOf(right);
      return this.#define(node, kind, kind === 'class', kind === 'variable' ? null : right, property);
    }
    if (target !== 'module' || property.text !== 'exports') return false;
    if (right.type === 'identifier') this.#localExports.push({ exported: 'default', local: right.text });
    else if (right.type === 'object') {
      for (const entry of right.namedChildren) {
        if (entry.type === 'shorthand_property_identifier')
          this.#localExports.push({ exported: entry.text, local: entry.text });
        else if (entry.type === 'pair' && entry.childForFieldName('value')?.type === 'identifier') {
          const key = entry.childForFieldName('key')?.text;
          if (key) this.#localExports.push({ exported: key, local: entry.childForFieldName('value')!.text });
        }
      }
    } else if (FUNCTION_VALUE_TYPES.has(right.type) || right.type === 'class') {
      const name = right.childForFieldName('name');
      if (name) return this.#define(right, kindOf(right), right.type === 'class', right, name, false);
    }
    return false;
  }

  /** `require('x')` and `import('x')`, bound to whatever the enclosing declarator names. */
  #maybeRequire(node: SyntaxNode): void {
    const callee = node.childForFieldName('function');
    const isRequire = callee?.type === 'identifier' && callee.text === 'require';
    if (!isRequire && callee?.type !== 'import') return;
    const argument = node.childForFieldName('arguments')?.namedChildren[0];
    if (!argument || argument.type !== 'string') return;
    const entry: ExtractedImport = {
      specifier: unquote(argument.text),
      kind: isRequire ? 'require' : 'dynamic',
      bindings: [],
      star: false,
      line: node.startPosition.row + 1,
    };
    const declarator = node.parent?.type === 'variable_declarator' ? node.parent : null;
    const target = declarator?.childForFieldName('name');
    if (target?.type === 'identifier') entry.bindings.push({ imported: '*', local: target.text });
    else if (target?.type === 'object_pattern') {
      for (const property of target.namedChildren) {
        if (property.type === 'shorthand_property_identifier_pattern')
          entry.bindings.push({ imported: property.text, local: property.text });
        else if (property.type === 'pair_pattern') {
          const key = property.childForFieldName('key')?.text;
          const value = property.childForFieldName('value');
          if (key && value?.type === 'identifier') entry.bindings.push({ imported: key, local: value.text });
        }
      }
    }
    this.#imports.push(entry);
  }
}

export function walkEcmascript(tree: Parser.Tree, source: string): ExtractedFacts {
  return new EcmascriptWalker(source).walk(tree);
}
