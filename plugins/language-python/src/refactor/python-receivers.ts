import { posix } from 'node:path';
import type { RefactorIndexDefinition, RefactorIndexReference, RefactorWorkspace } from '@agentgov/core/contracts';
import { createRequire } from 'node:module';
import { sharedTreeSitter } from '@agentgov/core/tree-sitter-runtime';
import type Parser from 'tree-sitter';
import Python from 'tree-sitter-python';

/** The thread's one tree-sitter runtime: a second copy's trees would not work with the indexer's. */
const TreeSitter = sharedTreeSitter(() => createRequire(import.meta.url)('tree-sitter') as typeof Parser);

type SyntaxNode = Parser.SyntaxNode;
type Def = RefactorIndexDefinition;

/**
 * What a Python expression holds, as far as the file's syntax and the index tell: an instance or
 * the class object of a repository class, a repository function, `super()` inside a class, `None`,
 * something known not to be a repository class (`other`: a builtin, a literal, a module, a class
 * imported from outside the repository), or `unknown`.
 */
export type PyType =
  | { kind: 'instance' | 'class' | 'super'; cls: Def }
  /**
   * A function; a method reached on an instance keeps the receiver's class (`Self`, a generic base's type arguments).
   */
  | { kind: 'function'; fn: Def; self?: Def }
  /** A `contextvars.ContextVar[T]`: `.get()` gives what it holds. */
  | { kind: 'contextvar'; of: PyType[] }
  /** A `weakref.ref(x)`: calling it gives x (or None). */
  | { kind: 'weakref'; of: PyType[] }
  /** A module of the repository (`import click` → `src/click/__init__.py`). */
  | { kind: 'module'; path: string }
  | { kind: 'none' | 'other' | 'unknown' };

/**
 * What a member access of the renamed method's name is: the method (`high`), maybe it (`medium`), or not it (`none`).
 */
export type ReceiverVerdict = 'high' | 'medium' | 'none';

const UNKNOWN: PyType = { kind: 'unknown' };
const OTHER: PyType = { kind: 'other' };
const NONE: PyType = { kind: 'none' };
const MAX_DEPTH = 24;
/** Builtin types: an annotation naming one, or a call of one, is not a class of ours. */
const BUILTIN_TYPES = new Set([
  'str',
  'int',
  'float',
  'bool',
  'bytes',
  'bytearray',
  'list',
  'dict',
  'set',
  'frozenset',
  'tuple',
  'object',
  'complex',
  'range',
  'memoryview',
  'slice',
  'len',
  'repr',
  'format',
  'hash',
  'id',
  'print',
  'Exception',
  'BaseException',
  'ValueError',
  'TypeError',
  'KeyError',
  'RuntimeError',
]);
/** Annotation wrappers whose argument is the type (`Optional[X]`, `ClassVar[X]`). */
const WRAPPERS = new Set(['Optional', 'ClassVar', 'Final', 'Annotated', 'Required', 'NotRequired', 'ReadOnly']);
/** Annotations that say nothing about the type. */
const OPAQUE = new Set(['Any', 'TypeVar', 'ParamSpec', 'NewType', 'cast', 'Self']);
const LITERALS = new Set([
  'string',
  'concatenated_string',
  'integer',
  'float',
  'true',
  'false',
  'list',
  'dictionary',
  'set',
  'tuple',
  'list_comprehension',
  'dictionary_comprehension',
  'set_comprehension',
  'generator_expression',
  'lambda',
  'comparison_operator',
  'not_operator',
  'boolean_operator',
]);
/** Decorators that leave a function a function (or a method a method). */
const TRANSPARENT_DECORATOR =
  /^@\s*(?:[\w.]*\.)?(?:staticmethod|classmethod|overload|abstractmethod|override|final|wraps\(.*\))\s*$/s;
const SCOPE_TYPES = new Set(['function_definition', 'class_definition', 'lambda']);
const TEST_FILE = /(^|\/)(test_[^/]*|[^/]*_test|conftest)\.py$/;

/**
 * Types of the receivers of member accesses (`x` in `x.name`), for the Python refactor engine:
 * local assignments from a constructor call, parameter and variable annotations (string forward
 * references too), `self`/`cls`, parameters with class-typed defaults, return annotations of
 * resolved calls, `super()`, `with … as x` through `__enter__`'s annotation, instance attributes
 * (`self.x = …`, class-level `x: T`) and pytest fixtures (a test's parameter named after a fixture
 * of its module or a `conftest.py` above it). Names resolve through the index's references, so
 * imports and re-exports resolve as they do everywhere else. One instance per rename (it caches).
 */
export class PythonReceivers {
  readonly #workspace: RefactorWorkspace;
  readonly #parser = new TreeSitter();
  readonly #trees = new Map<string, { tree: Parser.Tree; lines: string[] } | null>();
  readonly #refs = new Map<string, Map<string, RefactorIndexReference>>();
  readonly #defsByUid = new Map<string, Def | null>();
  readonly #bases = new Map<string, Array<Def | null>>();
  readonly #inProgress = new Set<string>();
  #allDefinitionsRead = false;
  #paths: Set<string> | null = null;

  constructor(workspace: RefactorWorkspace) {
    this.#workspace = workspace;
    this.#parser.setLanguage(Python);
  }

  /**
   * The verdict for the member access whose name token starts at `line` (1-based) / `col` (0-based,
   * UTF-16) of `path`, when `method` (a method of class `owner`) is renamed.
   */
  verdict(path: string, line: number, col: number, owner: Def, method: string): ReceiverVerdict {
    const receiver = this.#receiverAt(path, line, col);
    if (!receiver) return 'medium';
    return this.#decide(this.#infer(path, receiver, 0), owner, method);
  }

  /** The type of the receiver expression at a member access (for tests and diagnostics). */
  receiverType(path: string, line: number, col: number): PyType[] {
    const receiver = this.#receiverAt(path, line, col);
    return receiver ? this.#infer(path, receiver, 0) : [UNKNOWN];
  }

  /** The base classes of a repository class (null: a base the index cannot resolve), for tests and diagnostics. */
  bases(cls: Def): Array<Def | null> {
    return this.#basesOf(cls);
  }

  #decide(types: PyType[], owner: Def, method: string): ReceiverVerdict {
    const known = types.filter((t) => t.kind !== 'none');
    if (known.length === 0) return 'none';
    const verdicts = new Set(known.map((t) => this.#decideOne(t, owner, method)));
    if (verdicts.size === 1) return [...verdicts][0]!;
    return 'medium';
  }

  #decideOne(type: PyType, owner: Def, method: string): ReceiverVerdict {
    switch (type.kind) {
      case 'unknown':
        return 'medium';
      case 'instance':
      case 'class': {
        const found = this.#lookup(type.cls, method, new Set());
        if (found.holder?.def_uid === owner.def_uid) return found.uncertain ? 'medium' : 'high';
        if (!this.#isSubclass(owner, type.cls)) return 'none';
        // a base class of the owner that does not have the name at all (`self.send_static_file` in a base
        // only its subclass completes): the access reaches a subclass's member — the owner's, when no
        // other class of the repository deriving from the base defines one
        if (!found.def && !found.uncertain && this.#onlyDefiner(type.cls, owner, method)) return 'high';
        // a value typed as a base class of the owner may be an instance of the owner
        return 'medium';
      }
      case 'super': {
        let uncertain = false;
        for (const base of this.#basesOf(type.cls)) {
          if (!base) {
            uncertain = true;
            continue;
          }
          const found = this.#lookup(base, method, new Set());
          if (!found.def) {
            uncertain ||= found.uncertain;
            continue;
          }
          if (found.holder?.def_uid !== owner.def_uid) return 'none';
          return uncertain || found.uncertain ? 'medium' : 'high';
        }
        return uncertain ? 'medium' : 'none';
      }
      default:
        return 'none';
    }
  }

  /**
   * Where attribute `name` of class `cls` comes from, in method resolution order (depth first,
   * left to right): the class holding it (`def` is that class's member, or the class itself for a
   * class-level assignment) and whether a base the index cannot see came before it (`uncertain`).
   */
  #lookup(cls: Def, name: string, seen: Set<string>): { def: Def | null; holder: Def | null; uncertain: boolean } {
    if (seen.has(cls.def_uid)) return { def: null, holder: null, uncertain: false };
    seen.add(cls.def_uid);
    const member = this.#workspace.definitions({ path: cls.path, qualifiedName: `${cls.qualified_name}.${name}` })[0];
    if (member) return { def: member, holder: cls, uncertain: false };
    if (this.#classAttribute(cls, name)) return { def: cls, holder: cls, uncertain: false };
    let uncertain = false;
    for (const base of this.#basesOf(cls)) {
      if (!base) {
        uncertain = true;
        continue;
      }
      const found = this.#lookup(base, name, seen);
      if (found.def) return { ...found, uncertain: uncertain || found.uncertain };
      uncertain ||= found.uncertain;
    }
    return { def: null, holder: null, uncertain };
  }

  /** Whether `owner` is the one class deriving from `base` that defines `name` (its own subclasses aside). */
  #onlyDefiner(base: Def, owner: Def, name: string): boolean {
    this.#classes ??= this.#workspace.definitions({}).filter((d) => d.kind === 'class');
    return this.#classes.every(
      (cls) =>
        cls.def_uid === owner.def_uid ||
        !this.#isSubclass(cls, base) ||
        this.#isSubclass(cls, owner) ||
        this.#workspace.definitions({ path: cls.path, qualifiedName: `${cls.qualified_name}.${name}` }).length === 0,
    );
  }

  #classes: Def[] | undefined;

  #isSubclass(cls: Def, ancestor: Def, seen = new Set<string>()): boolean {
    if (cls.def_uid === ancestor.def_uid) return true;
    if (seen.has(cls.def_uid)) return false;
    seen.add(cls.def_uid);
    return this.#basesOf(cls).some((base) => base !== null && this.#isSubclass(base, ancestor, seen));
  }

  /** The base classes of a repository class: resolved classes, null for a base the index cannot resolve. */
  #basesOf(cls: Def): Array<Def | null> {
    const cached = this.#bases.get(cls.def_uid);
    if (cached) return cached;
    const bases: Array<Def | null> = [];
    this.#bases.set(cls.def_uid, bases);
    const node = this.#definitionNode(cls);
    const list = node?.childForFieldName('superclasses');
    for (const arg of list?.namedChildren ?? []) {
      if (arg.type === 'keyword_argument') continue;
      // `Base[T]`: a generic base is its class
      const types = this.#infer(cls.path, arg.type === 'subscript' ? (arg.childForFieldName('value') ?? arg) : arg, 0);
      const found = types.length === 1 && types[0]!.kind === 'class' ? (types[0] as { cls: Def }).cls : null;
      // `Generic[T]`, `t.Protocol[T]`, `object`: typing machinery and the root, no members of ours
      const head = arg.type === 'subscript' ? (arg.childForFieldName('value')?.text ?? '') : arg.text;
      if (!found && /^(?:[\w.]*\.)?(?:Generic|Protocol|object)$/.test(head)) continue;
      bases.push(found);
    }
    return bases;
  }

  /** `name = …` or `name: T` directly in the class body. */
  #classAttribute(cls: Def, name: string): SyntaxNode | null {
    const body = this.#definitionNode(cls)?.childForFieldName('body');
    for (const statement of body?.namedChildren ?? []) {
      const assignment = statement.type === 'expression_statement' ? statement.firstNamedChild : null;
      if (assignment?.type === 'assignment' && assignment.childForFieldName('left')?.text === name) return assignment;
    }
    return null;
  }

  // ---- syntax access --------------------------------------------------------------------------

  #file(path: string): { tree: Parser.Tree; lines: string[] } | null {
    let file = this.#trees.get(path);
    if (file === undefined) {
      const text = this.#workspace.read(path);
      file = text === undefined ? null : { tree: this.#parser.parse(text), lines: text.split('\n') };
      this.#trees.set(path, file);
    }
    return file;
  }

  /** The object of the attribute whose name token is at the position (UTF-16 column). */
  #receiverAt(path: string, line: number, col: number): SyntaxNode | null {
    const file = this.#file(path);
    if (!file || file.lines[line - 1] === undefined) return null;
    // node-tree-sitter parses the JS string as UTF-16: its columns are code units, as the index's
    const node = file.tree.rootNode.descendantForPosition({ row: line - 1, column: col });
    const attribute = node.parent;
    if (node.type !== 'identifier' || attribute?.type !== 'attribute') return null;
    if (attribute.childForFieldName('attribute')?.startIndex !== node.startIndex) return null;
    return attribute.childForFieldName('object');
  }

  /** The index's reference whose name token starts where `node` does. */
  #refAt(path: string, node: SyntaxNode): RefactorIndexReference | undefined {
    if (node.tree !== this.#file(path)?.tree) return undefined; // a forward reference parsed on its own
    return this.#refsOf(path).get(`${node.startPosition.row + 1}:${node.startPosition.column}`);
  }

  /** The index's references of a file by `line:col` of their name token. */
  #refsOf(path: string): Map<string, RefactorIndexReference> {
    let byPosition = this.#refs.get(path);
    if (!byPosition) {
      byPosition = new Map();
      for (const ref of this.#workspace.references({ path })) byPosition.set(`${ref.start_line}:${ref.start_col}`, ref);
      this.#refs.set(path, byPosition);
    }
    return byPosition;
  }

  /** The definition a reference resolved to; `name` is the reference's (an alias may differ from the definition's). */
  #defOf(uid: string, name: string): Def | null {
    let def = this.#defsByUid.get(uid);
    if (def === undefined) {
      def = this.#workspace.definitions({ name }).find((d) => d.def_uid === uid) ?? null;
      if (!def && !this.#allDefinitionsRead) {
        // an alias (`import Blueprint as SansioBlueprint`): every definition, once
        this.#allDefinitionsRead = true;
        for (const d of this.#workspace.definitions({})) this.#defsByUid.set(d.def_uid, d);
        def = this.#defsByUid.get(uid) ?? null;
      }
      this.#defsByUid.set(uid, def);
    }
    return def;
  }

  #definitionNode(def: Def): SyntaxNode | null {
    const root = this.#file(def.path)?.tree.rootNode;
    if (!root) return null;
    const type = def.kind === 'class' ? 'class_definition' : 'function_definition';
    // from the name token up to the definition it names
    const start = root.descendantForPosition({ row: def.name_line - 1, column: def.name_col });
    for (let n: SyntaxNode | null = start; n; n = n.parent) {
      if (n.type === type && n.childForFieldName('name')?.startPosition.row === def.name_line - 1) return n;
    }
    return null;
  }

  /** The repository definition a definition node is (class or function), found by its name line. */
  #defOfNode(path: string, node: SyntaxNode): Def | null {
    const name = node.childForFieldName('name');
    if (!name) return null;
    return (
      this.#workspace.definitions({ path, name: name.text }).find((d) => d.name_line === name.startPosition.row + 1) ??
      null
    );
  }

  // ---- inference ----------------------------------------------------------------------------

  #infer(path: string, node: SyntaxNode, depth: number): PyType[] {
    if (depth > MAX_DEPTH) return [UNKNOWN];
    const key = `${path}:${node.startIndex}:${node.endIndex}:${node.type}`;
    if (this.#inProgress.has(key)) return [UNKNOWN];
    this.#inProgress.add(key);
    try {
      return this.#inferUncached(path, node, depth + 1);
    } finally {
      this.#inProgress.delete(key);
    }
  }

  #inferUncached(path: string, node: SyntaxNode, depth: number): PyType[] {
    switch (node.type) {
      case 'parenthesized_expression':
        return node.firstNamedChild ? this.#infer(path, node.firstNamedChild, depth) : [UNKNOWN];
      case 'none':
        return [NONE];
      case 'identifier':
        return this.#nameType(path, node, depth);
      case 'call':
        return this.#callType(path, node, depth);
      case 'attribute':
        return this.#attributeType(path, node, depth);
      case 'await':
        return [UNKNOWN];
      case 'conditional_expression': {
        const [a, , b] = node.namedChildren;
        return a && b ? [...this.#infer(path, a, depth), ...this.#infer(path, b, depth)] : [UNKNOWN];
      }
      default:
        return LITERALS.has(node.type) ? [OTHER] : [UNKNOWN];
    }
  }

  #callType(path: string, node: SyntaxNode, depth: number): PyType[] {
    const callee = node.childForFieldName('function');
    if (!callee) return [UNKNOWN];
    if (callee.type === 'identifier' && callee.text === 'super') {
      const cls = this.#enclosingClass(path, node);
      return cls ? [{ kind: 'super', cls }] : [UNKNOWN];
    }
    // `t.cast(Flask, value)`: the type the code vouches for
    const castTo = /^(?:[\w.]*\.)?cast$/.test(callee.text)
      ? node.childForFieldName('arguments')?.firstNamedChild
      : null;
    if (castTo) return this.#annotationType(path, castTo, depth);
    // `weakref.ref(x)`: a reference to x (calling it gives x, or None once x is gone)
    if (/^(?:weakref\.)?ref$/.test(callee.text)) {
      const referent = node.childForFieldName('arguments')?.firstNamedChild;
      const fromWeakref = this.#workspace.imports(path).some((e) => e.to_path === null && e.specifier === 'weakref');
      if (referent && fromWeakref) return [{ kind: 'weakref', of: this.#infer(path, referent, depth) }];
    }
    // `var.get()` / `var.get(default)` of a ContextVar[T]: a T (or the default)
    const getter = callee.type === 'attribute' && callee.childForFieldName('attribute')?.text === 'get';
    const held = getter ? this.#infer(path, callee.childForFieldName('object')!, depth) : [];
    if (held.length > 0 && held.every((t) => t.kind === 'contextvar')) {
      const fallback = node.childForFieldName('arguments')?.firstNamedChild;
      return [
        ...held.flatMap((t) => (t.kind === 'contextvar' ? t.of : [])),
        ...(fallback ? this.#infer(path, fallback, depth) : []),
      ];
    }
    return this.#infer(path, callee, depth).flatMap((t): PyType[] => {
      if (t.kind === 'class') return [{ kind: 'instance', cls: t.cls }];
      if (t.kind === 'function') return this.#returnType(t.fn, depth, t.self);
      if (t.kind === 'weakref') return [...t.of, NONE];
      if (t.kind !== 'other') return [UNKNOWN];
      // `str(x)`, `Client(app)`: a builtin type or an outside class builds an object that is not ours;
      // `weakref.ref(self)()`, `copy.copy(m)`, `t.cast(…)`: an outside function may return one of ours
      const name = callee.type === 'attribute' ? (callee.childForFieldName('attribute')?.text ?? '') : callee.text;
      return [BUILTIN_TYPES.has(name) || /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*$/.test(name) ? OTHER : UNKNOWN];
    });
  }

  /**
   * What calling a function gives: its return annotation, else what its `return` statements give (a generator:
   * unknown).
   */
  #returnType(fn: Def, depth: number, self?: Def): PyType[] {
    const node = this.#definitionNode(fn);
    if (!node) return [UNKNOWN];
    const annotation = node.childForFieldName('return_type');
    const holder = fn.kind === 'method' ? this.#enclosingClass(fn.path, node) : null;
    const owner = self ?? holder;
    if (annotation && self && holder) {
      // `-> T` where T is a type parameter of the method's generic class: the receiver's class says what T is
      const bound = this.#typeArgument(fn.path, annotation, holder, self, depth);
      if (bound) return bound;
    }
    if (annotation) return this.#annotationType(fn.path, annotation, depth, owner ?? undefined);
    const returned = returnedValues(node);
    if (returned.length === 0 || returned.some((value) => value.parent?.type === 'yield')) return [UNKNOWN];
    const types = returned.flatMap((value) => this.#infer(fn.path, value, depth)).filter((t) => t.kind !== 'none');
    return types.length > 0 ? types : [UNKNOWN];
  }

  /**
   * `T` of a method's return annotation, when T is a `TypeVar` of the module that the method's class
   * takes as a type parameter (`class ProxyMixin(Protocol[T])`) and the receiver's class, or a class
   * it derives from, names the argument (`class FlaskProxy(ProxyMixin[Flask], Flask)` → Flask).
   */
  #typeArgument(path: string, annotation: SyntaxNode, holder: Def, self: Def, depth: number): PyType[] | null {
    const name = annotation.type === 'type' ? annotation.firstNamedChild : annotation;
    if (name?.type !== 'identifier') return null;
    const root = this.#file(path)?.tree.rootNode;
    const bindings = root ? scopeBindings(root, name.text) : [];
    const isTypeVar =
      bindings !== 'global' &&
      bindings.length === 1 &&
      bindings[0]!.type === 'assignment' &&
      /^(?:[\w.]*\.)?TypeVar$/.test(bindings[0]!.childForFieldName('right')?.childForFieldName('function')?.text ?? '');
    if (!isTypeVar) return null;
    const parameters = this.#definitionNode(holder)?.childForFieldName('superclasses')?.namedChildren ?? [];
    let position = -1;
    for (const base of parameters) {
      if (base.type !== 'subscript') continue;
      const index = base.childrenForFieldName('subscript').findIndex((arg) => arg.text === name.text);
      if (index >= 0) position = index;
    }
    if (position < 0) return null;
    // the receiver's class and its ancestors: the first base written `Holder[…]` gives the argument
    const queue: Def[] = [self];
    const seen = new Set<string>();
    while (queue.length > 0) {
      const cls = queue.shift()!;
      if (seen.has(cls.def_uid)) continue;
      seen.add(cls.def_uid);
      for (const base of this.#definitionNode(cls)?.childForFieldName('superclasses')?.namedChildren ?? []) {
        if (base.type !== 'subscript') continue;
        const head = base.childForFieldName('value');
        const types = head ? this.#infer(cls.path, head, depth) : [];
        if (!types.some((t) => t.kind === 'class' && t.cls.def_uid === holder.def_uid)) continue;
        const argument = base.childrenForFieldName('subscript')[position];
        return argument ? this.#annotationType(cls.path, argument, depth) : null;
      }
      for (const base of this.#basesOf(cls)) if (base) queue.push(base);
    }
    return null;
  }

  #attributeType(path: string, node: SyntaxNode, depth: number): PyType[] {
    const object = node.childForFieldName('object');
    const attribute = node.childForFieldName('attribute');
    if (!object || !attribute) return [UNKNOWN];
    // a module attribute (`pkg.mod.Class`) the index resolved
    const ref = this.#refAt(path, attribute);
    if (ref?.to_def_uid) return this.#defType(this.#defOf(ref.to_def_uid, ref.name));
    // `x.name` fails on None: where x may also be None (`ctx = var.get(None)`), the other types decide
    const objects = this.#infer(path, object, depth);
    const values = objects.filter((t) => t.kind !== 'none');
    return (values.length > 0 ? values : objects).flatMap((t): PyType[] => {
      if (t.kind === 'instance' || t.kind === 'class' || t.kind === 'super')
        return this.#memberType(t, attribute.text, depth);
      if (t.kind === 'module') return this.#moduleMember(t.path, attribute.text, depth);
      // an attribute of an outside object can hold anything (`ctx.obj` of a click context)
      return [UNKNOWN];
    });
  }

  /**
   * The type of `x.name` where `x` is an instance or class of ours: a bound method, a class attribute, an instance
   * attribute.
   */
  #memberType(owner: { kind: 'instance' | 'class' | 'super'; cls: Def }, name: string, depth: number): PyType[] {
    const found = this.#lookup(owner.cls, name, owner.kind === 'super' ? new Set([owner.cls.def_uid]) : new Set());
    if (found.def && found.def.kind === 'method')
      return [{ kind: 'function', fn: found.def, self: owner.kind === 'class' ? undefined : owner.cls }];
    if (found.def && found.holder && found.def.def_uid === found.holder.def_uid) {
      const assignment = this.#classAttribute(found.holder, name);
      if (assignment) return this.#assignmentType(found.holder.path, assignment, depth);
    }
    if (found.def) return this.#defType(found.def);
    if (owner.kind !== 'instance') return [UNKNOWN];
    return this.#instanceAttribute(owner.cls, name, depth, new Set());
  }

  /** `self.name = value` (or `self.name: T`) in the methods of the class or its bases. */
  #instanceAttribute(cls: Def, name: string, depth: number, seen: Set<string>): PyType[] {
    if (seen.has(cls.def_uid)) return [UNKNOWN];
    seen.add(cls.def_uid);
    const body = this.#definitionNode(cls)?.childForFieldName('body');
    const types: PyType[] = [];
    const visit = (node: SyntaxNode, method: SyntaxNode | null): void => {
      for (const child of node.namedChildren) {
        if (child.type === 'class_definition') continue;
        if (child.type === 'function_definition') {
          if (method === null) visit(child, child);
          continue;
        }
        if (method && child.type === 'assignment') {
          const left = child.childForFieldName('left');
          const selfName = firstParameter(method);
          const onSelf =
            selfName !== null && left?.type === 'attribute' && left.childForFieldName('object')?.text === selfName;
          if (onSelf && left.childForFieldName('attribute')?.text === name) {
            types.push(...this.#assignmentType(cls.path, child, depth));
          }
        }
        visit(child, method);
      }
    };
    if (body) visit(body, null);
    if (types.length > 0) return types;
    for (const base of this.#basesOf(cls)) {
      if (!base) return [UNKNOWN];
      const inherited = this.#instanceAttribute(base, name, depth, seen);
      if (!(inherited.length === 1 && inherited[0]!.kind === 'unknown')) return inherited;
    }
    return [UNKNOWN];
  }

  #assignmentType(path: string, assignment: SyntaxNode, depth: number): PyType[] {
    const annotation = assignment.childForFieldName('type');
    if (annotation) return this.#annotationType(path, annotation, depth);
    const right = assignment.childForFieldName('right');
    return right ? this.#infer(path, right, depth) : [UNKNOWN];
  }

  /** What a definition's name holds; `shallow`: a variable's value is not followed (a type alias, a TypeVar). */
  #defType(def: Def | null, shallow = false): PyType[] {
    if (!def) return [UNKNOWN];
    if (def.kind === 'class') return [{ kind: 'class', cls: def }];
    if (def.kind === 'function' || def.kind === 'method') {
      // `@click.command() def cli(…)` binds what the decorator returns, not the function
      const node = this.#definitionNode(def);
      return node && decoratorsOf(node).every((d) => TRANSPARENT_DECORATOR.test(d))
        ? [{ kind: 'function', fn: def }]
        : [UNKNOWN];
    }
    if (shallow) return [UNKNOWN];
    if (def.kind === 'variable' || def.kind === 'constant') {
      const node = this.#assignmentNode(def);
      return node ? this.#assignmentType(def.path, node, 1) : [UNKNOWN];
    }
    return [OTHER];
  }

  /** The module-level `name = …` statement a variable definition is. */
  #assignmentNode(def: Def): SyntaxNode | null {
    const root = this.#file(def.path)?.tree.rootNode;
    const at = root?.descendantForPosition({ row: def.name_line - 1, column: def.name_col });
    for (let n = at ?? null; n; n = n.parent) if (n.type === 'assignment') return n;
    return null;
  }

  // ---- names and scopes ----------------------------------------------------------------------

  #nameType(path: string, node: SyntaxNode, depth: number): PyType[] {
    const name = node.text;
    for (let scope = enclosingScope(node); scope; scope = enclosingScope(scope)) {
      if (scope.type === 'class_definition') continue; // class bodies are not enclosing scopes of their methods
      const bindings = scopeBindings(scope, name);
      if (bindings === 'global') break;
      if (bindings.length > 0) return this.#bindingTypes(path, scope, reaching(bindings, node), depth);
    }
    return this.#moduleName(path, node, name, depth);
  }

  #moduleName(path: string, node: SyntaxNode, name: string, depth: number): PyType[] {
    const root = this.#file(path)?.tree.rootNode;
    const bindings = root ? scopeBindings(root, name) : [];
    // the index resolved the name itself (an import it followed, a definition of the module)
    const ref = this.#refAt(path, node);
    const declarative =
      bindings !== 'global' && bindings.every((b) => b.type !== 'assignment' && b.type !== 'named_expression');
    if (ref?.to_def_uid && declarative) return this.#defType(this.#defOf(ref.to_def_uid, ref.name));
    if (bindings !== 'global' && bindings.length > 0)
      return this.#bindingTypes(path, root!, reaching(bindings, node), depth);
    if (ref?.to_def_uid) return this.#defType(this.#defOf(ref.to_def_uid, ref.name));
    if (BUILTIN_TYPES.has(name)) return [OTHER];
    return [UNKNOWN];
  }

  #bindingTypes(path: string, scope: SyntaxNode, bindings: SyntaxNode[], depth: number): PyType[] {
    // an annotated binding declares the type for the whole scope
    const annotated = bindings.find((b) => b.type === 'assignment' && b.childForFieldName('type'));
    if (annotated) return this.#annotationType(path, annotated.childForFieldName('type')!, depth);
    return bindings.flatMap((binding) => this.#bindingType(path, scope, binding, depth));
  }

  #bindingType(path: string, scope: SyntaxNode, binding: SyntaxNode, depth: number): PyType[] {
    switch (binding.type) {
      case 'assignment':
        return this.#assignmentType(path, binding, depth);
      case 'named_expression': {
        const value = binding.childForFieldName('value');
        return value ? this.#infer(path, value, depth) : [UNKNOWN];
      }
      case 'class_definition':
      case 'function_definition':
        return this.#defType(this.#defOfNode(path, binding));
      case 'typed_parameter':
      case 'typed_default_parameter': {
        const type = binding.childForFieldName('type');
        return type ? this.#annotationType(path, type, depth) : [UNKNOWN];
      }
      case 'default_parameter': {
        const value = binding.childForFieldName('value');
        const types = value ? this.#infer(path, value, depth).filter((t) => t.kind !== 'none') : [];
        return types.length > 0 ? types : [UNKNOWN];
      }
      case 'identifier':
        return binding.parent?.type === 'parameters' ? this.#parameterType(path, scope, binding, depth) : [UNKNOWN];
      case 'as_pattern_target': {
        const value = binding.parent?.firstNamedChild;
        return value ? this.#enterType(path, value, depth) : [UNKNOWN];
      }
      case 'dotted_name':
      case 'aliased_import':
        return this.#importedType(path, binding);
      default:
        return [UNKNOWN];
    }
  }

  /** A name bound by an import: a module (`import x`), a definition the index resolved, or something from outside. */
  #importedType(path: string, binding: SyntaxNode, shallow = false, depth = 0): PyType[] {
    const statement = binding.parent;
    const line = (statement?.startPosition.row ?? -1) + 1;
    if (statement?.type === 'import_statement') {
      // `import a.b` binds `a`; `import a.b as z` binds `z` to `a.b`: a module of ours, or one from outside
      const aliased = binding.type === 'aliased_import';
      const dotted = (aliased ? binding.childForFieldName('name')?.text : binding.text) ?? '';
      const edge = this.#workspace.imports(path).find((e) => e.line === line && e.specifier === dotted);
      if (!edge?.to_path) return [OTHER];
      const up = aliased ? 0 : dotted.split('.').length - 1;
      const target = up === 0 ? edge.to_path : this.#packageAbove(edge.to_path, up);
      return target ? [{ kind: 'module', path: target }] : [UNKNOWN];
    }
    const alias = binding.type === 'aliased_import' ? binding.childForFieldName('alias') : null;
    const named = binding.type === 'aliased_import' ? binding.childForFieldName('name') : binding;
    const local = (alias ?? named)?.text ?? '';
    // the index resolves every use of the bound name alike (through re-exports too): ask it at a use
    const use = this.#resolvedUse(path, local);
    if (use) return this.#defType(use, shallow);
    const edge = this.#workspace
      .imports(path)
      .find((e) => e.line === line && e.bindings.some((b) => b.local === local));
    if (!edge) return [UNKNOWN];
    if (edge.to_path === null) return [OTHER]; // a name from outside the repository
    const imported = edge.bindings.find((b) => b.local === local)!.imported;
    // `from pkg import mod` (the index records module `pkg.mod`), else a name the module holds or re-exports
    if (imported === '*') return [{ kind: 'module', path: edge.to_path }];
    const member = this.#moduleMember(edge.to_path, imported, depth + 1);
    // shallow (an annotation): only a class names a type; a variable there is an alias or a TypeVar
    return shallow
      ? member.map((t): PyType => (t.kind === 'class' ? t : t.kind === 'module' ? OTHER : UNKNOWN))
      : member;
  }

  /** `module.name`: a definition of the module, a submodule of a package, or a name it imports (re-exports). */
  #moduleMember(path: string, name: string, depth: number): PyType[] {
    if (depth > MAX_DEPTH) return [UNKNOWN];
    const def = this.#workspace.definitions({ path, qualifiedName: name })[0];
    if (def) return this.#defType(def);
    if (path.endsWith('__init__.py')) {
      const dir = path.slice(0, -'__init__.py'.length);
      for (const candidate of [`${dir}${name}.py`, `${dir}${name}/__init__.py`]) {
        if (this.#hasFile(candidate)) return [{ kind: 'module', path: candidate }];
      }
    }
    const root = this.#file(path)?.tree.rootNode;
    const bindings = root ? scopeBindings(root, name) : [];
    if (bindings === 'global' || bindings.length === 0) return [UNKNOWN];
    const imports = bindings.filter((b) => b.type === 'dotted_name' || b.type === 'aliased_import');
    if (imports.length === bindings.length)
      return imports.flatMap((b) => this.#importedType(path, b, false, depth + 1));
    return this.#bindingTypes(path, root!, bindings, depth);
  }

  #hasFile(path: string): boolean {
    this.#paths ??= new Set(this.#workspace.files().map((f) => f.path));
    return this.#paths.has(path);
  }

  /** The package `up` levels above a module file (`a/b/c.py`, 2 → `a/__init__.py`), when it is one. */
  #packageAbove(path: string, up: number): string | null {
    let dir = posix.dirname(path);
    if (path.endsWith('/__init__.py')) dir = posix.dirname(dir);
    for (let i = 1; i < up; i += 1) dir = posix.dirname(dir);
    const init = `${dir}/__init__.py`;
    return this.#hasFile(init) ? init : null;
  }

  /** What the index resolved a bare use of `name` in the file to (outside import statements). */
  #resolvedUse(path: string, name: string): Def | null {
    for (const ref of this.#refsOf(path).values()) {
      const bare = ref.name === name && ref.qualifier === null && ref.context !== 'import';
      if (bare && ref.to_def_uid) return this.#defOf(ref.to_def_uid, name);
    }
    return null;
  }

  /** `with value as x`: what `value.__enter__()` returns, from its annotation. */
  #enterType(path: string, value: SyntaxNode, depth: number): PyType[] {
    return this.#infer(path, value, depth).flatMap((t): PyType[] => {
      if (t.kind === 'instance') {
        const found = this.#lookup(t.cls, '__enter__', new Set());
        if (found.def && found.def.kind === 'method') return this.#returnType(found.def, depth, t.cls);
      }
      return [UNKNOWN];
    });
  }

  /** An unannotated parameter: `self`/`cls` of a method, a pytest fixture, else unknown. */
  #parameterType(path: string, fn: SyntaxNode, param: SyntaxNode, depth: number): PyType[] {
    if (fn.type !== 'function_definition') return [UNKNOWN];
    const decorators = decoratorsOf(fn);
    const cls = methodClass(fn);
    if (cls && firstParameter(fn) === param.text && param.parent?.firstNamedChild?.startIndex === param.startIndex) {
      if (decorators.some((d) => /\bstaticmethod\b/.test(d))) return [UNKNOWN];
      const def = this.#defOfNode(path, cls);
      if (!def) return [UNKNOWN];
      const classLevel = decorators.some((d) => /\bclassmethod\b/.test(d)) || param.text === 'cls';
      return [{ kind: classLevel ? 'class' : 'instance', cls: def }];
    }
    // a test's parameter is a fixture unless `@pytest.mark.parametrize` names it
    const parametrized = decorators.some((d) => /parametrize/.test(d) && d.includes(param.text));
    if (TEST_FILE.test(path) && !parametrized) return this.#fixtureType(path, param.text, depth);
    return [UNKNOWN];
  }

  /** The fixture `name` a test parameter receives: from the module itself, else the nearest `conftest.py` above it. */
  #fixtureType(path: string, name: string, depth: number): PyType[] {
    const candidates = [path];
    for (let dir = posix.dirname(path); ; dir = posix.dirname(dir)) {
      candidates.push(dir === '.' ? 'conftest.py' : `${dir}/conftest.py`);
      if (dir === '.' || dir === '/' || dir === '') break;
    }
    for (const file of candidates) {
      const root = this.#file(file)?.tree.rootNode;
      if (!root) continue;
      for (const statement of root.namedChildren) {
        const fn = statement.type === 'decorated_definition' ? statement.childForFieldName('definition') : null;
        if (fn?.type !== 'function_definition') continue;
        // `@pytest.fixture(name="app")` names the fixture; otherwise the function's name does
        const fixture = decoratorsOf(fn).find((d) => /\bfixture\b/.test(d));
        const named = fixture ? /\bname\s*=\s*["']([^"']+)["']/.exec(fixture)?.[1] : undefined;
        if (!fixture || (named ?? fn.childForFieldName('name')?.text) !== name) continue;
        const annotation = fn.childForFieldName('return_type');
        if (annotation) return this.#annotationType(file, annotation, depth);
        const returned = returnedValues(fn);
        return returned.length > 0 ? returned.flatMap((value) => this.#infer(file, value, depth)) : [UNKNOWN];
      }
    }
    return [UNKNOWN];
  }

  #enclosingClass(path: string, node: SyntaxNode): Def | null {
    for (let n: SyntaxNode | null = node.parent; n; n = n.parent) {
      if (n.type === 'function_definition') {
        const cls = methodClass(n);
        if (cls) return this.#defOfNode(path, cls);
      }
      if (n.type === 'class_definition') return this.#defOfNode(path, n);
    }
    return null;
  }

  // ---- annotations ---------------------------------------------------------------------------

  #annotationType(path: string, node: SyntaxNode, depth: number, self?: Def): PyType[] {
    if (depth > MAX_DEPTH) return [UNKNOWN];
    switch (node.type) {
      case 'type':
        return node.firstNamedChild ? this.#annotationType(path, node.firstNamedChild, depth + 1, self) : [UNKNOWN];
      case 'none':
        return [NONE];
      case 'string': {
        const content = node.namedChildren
          .filter((c) => c.type === 'string_content')
          .map((c) => c.text)
          .join('');
        return this.#forwardReference(path, content.trim(), depth, self);
      }
      case 'binary_operator': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (!left || !right) return [UNKNOWN];
        return [
          ...this.#annotationType(path, left, depth + 1, self),
          ...this.#annotationType(path, right, depth + 1, self),
        ];
      }
      case 'subscript':
      case 'generic_type': {
        const head = node.type === 'subscript' ? node.childForFieldName('value') : node.firstNamedChild;
        const args =
          node.type === 'subscript'
            ? node.childrenForFieldName('subscript')
            : (node.namedChildren[1]?.namedChildren ?? []);
        const base = (head?.text ?? '').split('.').pop() ?? '';
        if (WRAPPERS.has(base)) return args[0] ? this.#annotationType(path, args[0], depth + 1, self) : [UNKNOWN];
        if (base === 'Union') return args.flatMap((arg) => this.#annotationType(path, arg, depth + 1, self));
        if (base === 'ContextVar' && args[0] && head) {
          // the standard library's `ContextVar[T]` (not a class of ours of that name)
          const own = this.#annotationType(path, head, depth + 1, self).some((t) => t.kind === 'instance');
          if (!own) return [{ kind: 'contextvar', of: this.#annotationType(path, args[0], depth + 1, self) }];
        }
        if (base === 'type' || base === 'Type') {
          if (!args[0]) return [UNKNOWN];
          return this.#annotationType(path, args[0], depth + 1, self).map((t) =>
            t.kind === 'instance' ? { kind: 'class', cls: t.cls } : t,
          );
        }
        // a generic container (`list[X]`, `dict[str, X]`) is not X; a generic class of ours is
        return head ? this.#annotationType(path, head, depth + 1, self) : [UNKNOWN];
      }
      case 'identifier':
      case 'attribute':
        return this.#annotationName(path, node, self);
      default:
        return [UNKNOWN];
    }
  }

  /**
   * A class named in an annotation: an instance of it. A type alias, `TypeVar` or function named
   * there says nothing (unknown); a builtin, a module's or an outside package's class is `other`.
   */
  #annotationName(path: string, node: SyntaxNode, self?: Def): PyType[] {
    const base = node.text.split('.').pop() ?? '';
    if (base === 'Self') return self ? [{ kind: 'instance', cls: self }] : [UNKNOWN];
    if (OPAQUE.has(base)) return [UNKNOWN];
    const instance = (types: PyType[]): PyType[] =>
      types.map((t): PyType =>
        t.kind === 'class' ? { kind: 'instance', cls: t.cls } : t.kind === 'other' ? OTHER : UNKNOWN,
      );
    if (node.type === 'attribute') {
      const attribute = node.childForFieldName('attribute');
      const ref = attribute ? this.#refAt(path, attribute) : undefined;
      if (ref?.to_def_uid) return instance(this.#defType(this.#defOf(ref.to_def_uid, ref.name), true));
      let root: SyntaxNode | null = node;
      while (root?.type === 'attribute') root = root.childForFieldName('object');
      if (root?.type !== 'identifier') return [UNKNOWN];
      // `click.Context` where `click` is a module from outside the repository
      const bindings = scopeBindings(this.#file(path)!.tree.rootNode, root.text);
      if (bindings === 'global' || bindings.length === 0) return [UNKNOWN];
      const isImport = (b: SyntaxNode) => b.type === 'dotted_name' || b.type === 'aliased_import';
      const external = bindings.every((b) => isImport(b) && this.#isOutsideImport(path, b));
      if (external) return [OTHER];
      // `click.Context` through a module of ours the index did not resolve
      return instance(this.#infer(path, node, 0).map((t): PyType => (t.kind === 'class' ? t : UNKNOWN)));
    }
    const root = this.#file(path)?.tree.rootNode;
    const bindings = root ? scopeBindings(root, node.text) : [];
    if (bindings !== 'global' && bindings.length > 0) {
      if (bindings.some((b) => b.type === 'assignment' || b.type === 'function_definition')) return [UNKNOWN];
      const named = (b: SyntaxNode) =>
        b.type === 'class_definition' ? this.#defType(this.#defOfNode(path, b)) : this.#importedType(path, b, true);
      return instance(bindings.flatMap(named));
    }
    const ref = this.#refAt(path, node);
    if (ref?.to_def_uid) return instance(this.#defType(this.#defOf(ref.to_def_uid, ref.name), true));
    return BUILTIN_TYPES.has(node.text) ? [OTHER] : [UNKNOWN];
  }

  #isOutsideImport(path: string, binding: SyntaxNode): boolean {
    const statement = binding.parent;
    const line = (statement?.startPosition.row ?? -1) + 1;
    const local =
      binding.type === 'aliased_import' ? binding.childForFieldName('alias')?.text : binding.text.split('.')[0];
    const edges = this.#workspace.imports(path).filter((e) => e.line === line);
    return edges.length > 0 && edges.every((e) => e.to_path === null || !e.bindings.some((b) => b.local === local));
  }

  /**
   * `"Context"`, `"t.Optional[Context]"`: the string parsed as an expression, its names looked up at the module level.
   */
  #forwardReference(path: string, text: string, depth: number, self?: Def): PyType[] {
    if (!text || text.length > 500) return [UNKNOWN];
    const expression = this.#parser.parse(text).rootNode.firstNamedChild;
    const node = expression?.type === 'expression_statement' ? expression.firstNamedChild : null;
    if (!node || node.hasError) return [UNKNOWN];
    return this.#annotationType(path, node, depth + 1, self);
  }
}

// ---- pure syntax helpers -----------------------------------------------------------------------

/** The function, class or lambda a node sits in (its own scope excluded), or null at module level. */
function enclosingScope(node: SyntaxNode): SyntaxNode | null {
  for (let n = node.parent; n; n = n.parent) {
    if (SCOPE_TYPES.has(n.type)) {
      // a default value or decorator belongs to the outer scope; parameters and body to the function
      const body = n.childForFieldName('body');
      const params = n.childForFieldName('parameters');
      const inside = (part: SyntaxNode | null) =>
        part !== null && node.startIndex >= part.startIndex && node.endIndex <= part.endIndex;
      if (inside(body) || (inside(params) && !isDefaultValue(node, params!))) return n;
    }
  }
  return null;
}

function isDefaultValue(node: SyntaxNode, params: SyntaxNode): boolean {
  for (let n: SyntaxNode | null = node; n && n.startIndex >= params.startIndex; n = n.parent) {
    const parent = n.parent;
    if (parent && (parent.type === 'default_parameter' || parent.type === 'typed_default_parameter')) {
      const at = n.startIndex;
      return (
        parent.childForFieldName('value')?.startIndex === at || parent.childForFieldName('type')?.startIndex === at
      );
    }
    if (parent?.type === 'typed_parameter') return n.type === 'type';
  }
  return false;
}

/**
 * The nodes binding `name` in one scope (a function's parameters and body, a class body or the
 * module), nested scopes excluded; `'global'` when the function declares it `global`/`nonlocal`.
 */
function scopeBindings(scope: SyntaxNode, name: string): SyntaxNode[] | 'global' {
  const found: SyntaxNode[] = [];
  let global = false;
  if (scope.type === 'function_definition' || scope.type === 'lambda') {
    for (const param of scope.childForFieldName('parameters')?.namedChildren ?? []) {
      if (param.type === 'identifier' && param.text === name) found.push(param);
      else if (param.type === 'typed_parameter' && param.firstNamedChild?.text === name) found.push(param);
      else if (param.type === 'default_parameter' || param.type === 'typed_default_parameter') {
        if (param.childForFieldName('name')?.text === name) found.push(param);
      } else if (param.type === 'list_splat_pattern' || param.type === 'dictionary_splat_pattern') {
        if (param.firstNamedChild?.text === name) return [];
      }
    }
  }
  const body = scope.type === 'module' ? scope : scope.childForFieldName('body');
  const visit = (node: SyntaxNode): void => {
    for (const child of node.namedChildren) {
      switch (child.type) {
        case 'function_definition':
        case 'class_definition':
          if (child.childForFieldName('name')?.text === name) found.push(child);
          continue;
        case 'decorated_definition': {
          const def = child.childForFieldName('definition');
          if (def?.childForFieldName('name')?.text === name) found.push(def);
          continue;
        }
        case 'lambda':
          continue;
        case 'global_statement':
        case 'nonlocal_statement':
          if (child.namedChildren.some((c) => c.text === name)) global = true;
          continue;
        case 'assignment': {
          const left = child.childForFieldName('left');
          if (left?.type === 'identifier' && left.text === name) found.push(child);
          else if (left && !['identifier', 'attribute', 'subscript'].includes(left.type) && bindsName(left, name))
            found.push(left);
          break;
        }
        case 'named_expression':
          if (child.childForFieldName('name')?.text === name) found.push(child);
          break;
        case 'for_statement':
        case 'for_in_clause': {
          const left = child.childForFieldName('left');
          if (left && bindsName(left, name)) found.push(left);
          break;
        }
        case 'as_pattern_target':
          if (child.firstNamedChild?.type === 'identifier' && child.firstNamedChild.text === name) found.push(child);
          else if (bindsName(child, name)) found.push(child.firstNamedChild ?? child);
          break;
        case 'except_clause':
          if (
            child.namedChildren.some(
              (c) => c.type === 'identifier' && c.text === name && c.previousSibling?.type === 'as',
            )
          ) {
            found.push(child);
          }
          break;
        case 'import_statement':
        case 'import_from_statement':
          for (const item of child.namedChildren) {
            const isModuleName = item.startIndex === child.childForFieldName('module_name')?.startIndex;
            if (child.type === 'import_from_statement' && isModuleName) continue;
            if (item.type === 'aliased_import' && item.childForFieldName('alias')?.text === name) found.push(item);
            else if (item.type === 'dotted_name' && (item.text === name || item.text.split('.')[0] === name))
              found.push(item);
          }
          continue;
      }
      visit(child);
    }
  };
  if (body) visit(body);
  return global ? 'global' : found;
}

/**
 * The bindings that can reach a use: an assignment whose right-hand side holds the use itself is
 * evaluated before it binds (`ctx = ctx.copy()` reads the earlier `ctx`), so it is left out — unless
 * nothing else binds the name.
 */
function reaching(bindings: SyntaxNode[], use: SyntaxNode): SyntaxNode[] {
  const inside = (binding: SyntaxNode) => {
    const right = binding.type === 'assignment' ? binding.childForFieldName('right') : null;
    return right !== null && use.startIndex >= right.startIndex && use.endIndex <= right.endIndex;
  };
  const others = bindings.filter((binding) => !inside(binding));
  return others.length > 0 ? others : bindings;
}

/** A target pattern (`a, b`, `[a, *b]`) binding `name`. */
function bindsName(target: SyntaxNode, name: string): boolean {
  if (target.type === 'identifier') return target.text === name;
  if (target.type === 'attribute' || target.type === 'subscript') return false;
  return target.namedChildren.some((child) => bindsName(child, name));
}

function decoratorsOf(fn: SyntaxNode): string[] {
  const parent = fn.parent;
  if (parent?.type !== 'decorated_definition') return [];
  return parent.namedChildren.filter((c) => c.type === 'decorator').map((c) => c.text);
}

/** The class a function is a method of (directly in its body), or null. */
function methodClass(fn: SyntaxNode): SyntaxNode | null {
  let up = fn.parent;
  if (up?.type === 'decorated_definition') up = up.parent;
  return up?.type === 'block' && up.parent?.type === 'class_definition' ? up.parent : null;
}

function firstParameter(fn: SyntaxNode): string | null {
  const first = fn.childForFieldName('parameters')?.firstNamedChild;
  if (!first) return null;
  if (first.type === 'identifier') return first.text;
  if (first.type === 'typed_parameter') return first.firstNamedChild?.text ?? null;
  return null;
}

/** The values a function returns or yields (`return x`, `yield x`), nested functions excluded. */
function returnedValues(fn: SyntaxNode): SyntaxNode[] {
  const values: SyntaxNode[] = [];
  const visit = (node: SyntaxNode): void => {
    for (const child of node.namedChildren) {
      if (SCOPE_TYPES.has(child.type) || child.type === 'decorated_definition') continue;
      const returns = child.type === 'return_statement' || child.type === 'yield';
      if (returns && child.firstNamedChild) values.push(child.firstNamedChild);
      visit(child);
    }
  };
  const body = fn.childForFieldName('body');
  if (body) visit(body);
  return values;
}
