import { MEMBER_OWNER_KINDS, REFERENCE_CONTEXTS, type ExtractedReference } from '@agentgov/core';
import { PACKED_FIELDS, PackedField, type CompactReferences } from '../compact-references.js';
import type { ModuleExports } from '../store/index-store.js';
import type { Definition, DefUid, ImportEdge } from '../types.js';

/** What resolution needs to know about one module. */
export interface ModuleFacts {
  path: string;
  python: boolean;
  definitions: Definition[];
  exports: ModuleExports;
  imports: ImportEdge[];
}

interface ModuleScope {
  facts: ModuleFacts;
  byQualified: Map<string, Definition>;
  topLevel: Map<string, Definition>;
  /** local name → (edge, imported name) */
  bindings: Map<string, { edge: ImportEdge; imported: string }>;
  /**
   * Namespace bindings (`imported: '*'`) whose import reaches several files (a Go package): local name → every edge.
   */
  namespaces: Map<string, ImportEdge[]>;
  stars: ImportEdge[];
  /** Files whose top-level definitions this one sees without an import (the pack's `packageScope`). */
  packageScope: string[];
}

const MAX_REEXPORT_DEPTH = 8;

/** A reference's resolution: the definition it sits in and the one it refers to (null: module level, unresolved). */
export interface Resolution {
  from: DefUid | null;
  to: DefUid | null;
}

/** One file's references resolved; each distinct resolution is listed once. */
export interface ResolvedReferences {
  references: CompactReferences;
  /**
   * Per reference, in the file's order, its entry in `resolutions`; -1 when it is dropped (unresolved, and no
   * definition anywhere has its name).
   */
  resolutionOf: Int32Array;
  resolutions: Resolution[];
}

/** What resolution reads of a reference's context: whether it is a call or an import, or neither. */
const CALL = REFERENCE_CONTEXTS.indexOf('call');
const IMPORT = REFERENCE_CONTEXTS.indexOf('import');
/**
 * The largest string table whose (name, qualifier, enclosing, context) key packs into one exact number (span³ × 3 <
 * 2^53); a file with more distinct strings keys its memo by text.
 */
const NUMERIC_KEY_SPAN = 100_000;

/**
 * Resolves references to definitions through lexical nesting, the module's own top level, its
 * import bindings (following re-export chains and barrels), namespace imports and `this`/`self`.
 * Anything else stays unresolved (`to_def_uid: null`), kept only when some definition has that name.
 */
export class ReferenceResolver {
  readonly #factsOf: (path: string) => ModuleFacts | undefined;
  readonly #isKnownName: (name: string) => boolean;
  readonly #scopes = new Map<string, ModuleScope | null>();
  /** `path\0name` → what the module exports under that name: barrels are asked the same thing for every reference. */
  readonly #exports = new Map<string, Definition | null>();

  readonly #packageScopeOf: (path: string) => string[];

  constructor(
    factsOf: (path: string) => ModuleFacts | undefined,
    isKnownName: (name: string) => boolean,
    packageScopeOf: (path: string) => string[] = () => [],
  ) {
    this.#factsOf = factsOf;
    this.#isKnownName = isKnownName;
    this.#packageScopeOf = packageScopeOf;
  }

  #scope(path: string): ModuleScope | null {
    const cached = this.#scopes.get(path);
    if (cached !== undefined) return cached;
    const facts = this.#factsOf(path);
    let scope: ModuleScope | null = null;
    if (facts) {
      const byQualified = new Map<string, Definition>();
      const topLevel = new Map<string, Definition>();
      for (const def of facts.definitions) {
        if (!byQualified.has(def.qualified_name)) byQualified.set(def.qualified_name, def);
        if (def.qualified_name === def.name && !topLevel.has(def.name)) topLevel.set(def.name, def);
      }
      const bindings = new Map<string, { edge: ImportEdge; imported: string }>();
      const namespaces = new Map<string, ImportEdge[]>();
      const stars: ImportEdge[] = [];
      for (const edge of facts.imports) {
        if (edge.star) stars.push(edge);
        for (const binding of edge.bindings) {
          if (!binding.local) continue;
          // A binding whose import resolved is not replaced by one that did not: a pack may offer two
          // readings of one import (Rust's `use a::b` names a module or an item) and resolve just one.
          if (!edge.to_path && bindings.get(binding.local)?.edge.to_path) continue;
          bindings.set(binding.local, { edge, imported: binding.imported });
          if (binding.imported === '*' && edge.to_path) {
            const list = namespaces.get(binding.local);
            if (list) list.push(edge);
            else namespaces.set(binding.local, [edge]);
          }
        }
      }
      scope = { facts, byQualified, topLevel, bindings, namespaces, stars, packageScope: this.#packageScopeOf(path) };
    }
    this.#scopes.set(path, scope);
    return scope;
  }

  /**
   * Resolves one file's references. Resolution reads only a reference's name, qualifier, enclosing definition and
   * whether it is a call or an import, so references alike in those (a name used again in one function) are
   * resolved once.
   */
  resolveFile(path: string, references: CompactReferences): ResolvedReferences {
    const scope = this.#scope(path);
    const { ints, strings, length } = references;
    const resolutionOf = new Int32Array(length);
    const resolutions: Resolution[] = [];
    const memo = new Map<number | string, number>();
    const span = strings.length + 1;
    for (let i = 0, at = 0; i < length; i++, at += PACKED_FIELDS) {
      const name = ints[at + PackedField.Name]!;
      const qualifier = ints[at + PackedField.Qualifier]! + 1;
      const enclosing = ints[at + PackedField.Enclosing]! + 1;
      const context = ints[at + PackedField.Context]!;
      const kind = context === CALL ? 1 : context === IMPORT ? 2 : 0;
      const key =
        span <= NUMERIC_KEY_SPAN
          ? ((name * span + qualifier) * span + enclosing) * 3 + kind
          : `${name},${qualifier},${enclosing},${kind}`;
      let resolution = memo.get(key);
      if (resolution === undefined) {
        const ref = references.at(i);
        const target = scope ? this.#resolve(scope, ref) : null;
        if (!target && !this.#isKnownName(ref.name)) resolution = -1;
        else {
          const from = ref.enclosing && scope ? (scope.byQualified.get(ref.enclosing)?.def_uid ?? null) : null;
          resolution = resolutions.push({ from, to: target?.def_uid ?? null }) - 1;
        }
        memo.set(key, resolution);
      }
      resolutionOf[i] = resolution;
    }
    return { references, resolutionOf, resolutions };
  }

  #resolve(scope: ModuleScope, ref: ExtractedReference): Definition | null {
    if (ref.qualifier === null) {
      const found = this.#resolveName(scope, ref.name, ref.enclosing, ref.context === 'call');
      // The imported-side name of `import { a as b }` / `export { a as b } from`: what the source module exports as
      // `a`.
      if (!found && ref.context === 'import') {
        for (const edge of scope.facts.imports) {
          if (edge.to_path && edge.bindings.some((binding) => binding.imported === ref.name))
            return this.#exported(edge.to_path, ref.name, 0);
        }
      }
      return found;
    }
    if (ref.qualifier === 'this' || ref.qualifier === 'self' || ref.qualifier === 'cls')
      return this.#resolveMember(scope, ref.name, ref.enclosing);
    const namespace = scope.bindings.get(ref.qualifier);
    if (namespace && namespace.imported === '*' && namespace.edge.to_path) {
      for (const edge of scope.namespaces.get(ref.qualifier) ?? [namespace.edge]) {
        const found = this.#exported(edge.to_path!, ref.name, 0);
        if (found) return found;
      }
      return null;
    }
    // `Class.staticMember` or `module.Class.member` where the qualifier names a class.
    const owner = ref.qualifier.includes('.')
      ? this.#namespaceMember(scope, ref.qualifier)
      : this.#resolveName(scope, ref.qualifier, ref.enclosing);
    if (owner && MEMBER_OWNER_KINDS.has(owner.kind)) return this.#member(owner, ref.name);
    return null;
  }

  /**
   * `Owner.name` in the owner's file, or in a file of its package scope (Go methods live in any file of the package).
   */
  #member(owner: Definition, name: string): Definition | null {
    const ownerScope = this.#scope(owner.path);
    const qualified = `${owner.qualified_name}.${name}`;
    const found = ownerScope?.byQualified.get(qualified);
    if (found || !ownerScope) return found ?? null;
    for (const sibling of ownerScope.packageScope) {
      const member = this.#scope(sibling)?.byQualified.get(qualified);
      if (member) return member;
    }
    return null;
  }

  /** `ns.Name` where `ns` is a namespace import: what that module exports as `Name`. */
  #namespaceMember(scope: ModuleScope, qualifier: string): Definition | null {
    const dot = qualifier.lastIndexOf('.');
    const namespace = scope.bindings.get(qualifier.slice(0, dot));
    if (!namespace || namespace.imported !== '*' || !namespace.edge.to_path) return null;
    return this.#exported(namespace.edge.to_path, qualifier.slice(dot + 1), 0);
  }

  /** A bare name: nested definitions of the enclosing chain, then module level, then imports. */
  #resolveName(scope: ModuleScope, name: string, enclosing: string | null, called = false): Definition | null {
    let prefix = enclosing;
    while (prefix) {
      const nested = scope.byQualified.get(`${prefix}.${name}`);
      if (nested && nested.kind !== 'method') return nested;
      const dot = prefix.lastIndexOf('.');
      prefix = dot < 0 ? null : prefix.slice(0, dot);
    }
    const local = scope.topLevel.get(name) ?? this.#inPackageScope(scope, name);
    if (local) return local;
    const binding = scope.bindings.get(name);
    if (binding) {
      if (!binding.edge.to_path) return null;
      // Calling a whole module (`const f = require('./f'); f()`) calls what it exports as a whole.
      if (binding.imported === '*')
        return called && !scope.facts.python ? this.#exported(binding.edge.to_path, 'default', 0) : null;
      return this.#exported(binding.edge.to_path, binding.imported, 0);
    }
    for (const star of scope.stars) {
      const found = star.to_path ? this.#exported(star.to_path, name, 0) : null;
      if (found) return found;
    }
    return null;
  }

  /** A top-level definition of a file in the package scope (never through that file's imports). */
  #inPackageScope(scope: ModuleScope, name: string): Definition | null {
    for (const sibling of scope.packageScope) {
      const found = this.#scope(sibling)?.topLevel.get(name);
      if (found) return found;
    }
    return null;
  }

  /** `this.name` / `self.name`: a member of the innermost enclosing class. */
  #resolveMember(scope: ModuleScope, name: string, enclosing: string | null): Definition | null {
    let prefix = enclosing;
    while (prefix) {
      const owner =
        scope.byQualified.get(prefix) ?? (prefix.includes('.') ? null : this.#inPackageScope(scope, prefix));
      if (owner && MEMBER_OWNER_KINDS.has(owner.kind)) return this.#member(owner, name);
      const dot = prefix.lastIndexOf('.');
      prefix = dot < 0 ? null : prefix.slice(0, dot);
    }
    return null;
  }

  /** What module `path` exports as `name`, following re-exports and star exports. */
  #exported(path: string, name: string, depth: number): Definition | null {
    if (depth > 0) return this.#exportedUncached(path, name, depth);
    const key = `${path}\0${name}`;
    let found = this.#exports.get(key);
    if (found === undefined) this.#exports.set(key, (found = this.#exportedUncached(path, name, 0)));
    return found;
  }

  #exportedUncached(path: string, name: string, depth: number): Definition | null {
    if (depth > MAX_REEXPORT_DEPTH) return null;
    const scope = this.#scope(path);
    if (!scope) return null;
    if (name === 'default') {
      const uid: DefUid | undefined = scope.facts.exports.defaultExports[0];
      if (uid) return scope.facts.definitions.find((def) => def.def_uid === uid) ?? null;
    }
    // A binding may name a member by qualified name (`Util.helper`, a Java static import).
    const local = scope.topLevel.get(name) ?? (name.includes('.') ? scope.byQualified.get(name) : undefined);
    if (local && (local.exported || scope.facts.python)) return local;
    const aliased = scope.facts.exports.localExports.find((entry) => entry.exported === name);
    if (aliased) {
      const target = scope.topLevel.get(aliased.local);
      if (target) return target;
      const binding = scope.bindings.get(aliased.local);
      if (binding?.edge.to_path && binding.imported !== '*')
        return this.#exported(binding.edge.to_path, binding.imported, depth + 1);
    }
    const binding = scope.bindings.get(name);
    if (
      binding &&
      (binding.edge.kind === 'reexport' || scope.facts.python) &&
      binding.edge.to_path &&
      binding.imported !== '*'
    ) {
      return this.#exported(binding.edge.to_path, binding.imported, depth + 1);
    }
    for (const star of scope.stars) {
      const found = star.to_path ? this.#exported(star.to_path, name, depth + 1) : null;
      if (found) return found;
    }
    return null;
  }
}
