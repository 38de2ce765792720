import { posix } from 'node:path';
import { AgentgovError } from '@agentgov/core';
import { distinctEdits, overloadedSymbols } from '@agentgov/core/contracts';
import type {
  Certainty,
  EngineReference,
  MovePlan,
  MoveRequest,
  RefactorEdit,
  RefactorEngine,
  RefactorIndexDefinition,
  RefactorIndexImport,
  RefactorIndexReference,
  RefactorSymbol,
  RefactorWorkspace,
  RenameCollision,
  RenamePlan,
  RenameRequest,
  UneditedReference,
} from '@agentgov/core/contracts';
import { createRequire } from 'node:module';
import { sharedTreeSitter } from '@agentgov/core/tree-sitter-runtime';
import type Parser from 'tree-sitter';
import Python from 'tree-sitter-python';
import { dynamicNameSources } from './python-dynamic-names.js';
import { commentAndStringRanges, mentionsOf } from './python-mentions.js';
import { absoluteModule, PythonModuleNames, relativeSpecifier, renamedModule } from './python-modules.js';
import { PythonReceivers } from './python-receivers.js';

/** The thread's one tree-sitter runtime: a second copy's trees would not work with the indexer's. */
const TreeSitter = sharedTreeSitter(() => createRequire(import.meta.url)('tree-sitter') as typeof Parser);

const PYTHON = /\.pyi?$/;
const KEYWORDS = new Set([
  'False',
  'None',
  'True',
  'and',
  'as',
  'assert',
  'async',
  'await',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'else',
  'except',
  'finally',
  'for',
  'from',
  'global',
  'if',
  'import',
  'in',
  'is',
  'lambda',
  'nonlocal',
  'not',
  'or',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
  'yield',
]);

/**
 * Rename and move for Python from the index's own resolution: references the index resolved to
 * the definition through scope, imports and attribute access on a resolved module or class are
 * `high`; a member access of the same name on a value the index cannot type is `medium`; mentions
 * in comments, strings and docstrings are `low`. Moves rewrite every import statement whose module
 * moves (absolute, relative, aliased, `from pkg import module`) and the attribute paths of `import a.b`
 * users that name a moved module (`a.b.x`, `a.moved.x`).
 */
export class PythonRefactorEngine implements RefactorEngine {
  readonly name = 'python-index-resolution';
  readonly #parser = new TreeSitter();

  constructor() {
    this.#parser.setLanguage(Python);
  }

  checkIdentifier(name: string): string | null {
    if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name)) return `'${name}' is not a valid Python identifier`;
    if (KEYWORDS.has(name)) return `'${name}' is a Python keyword`;
    return null;
  }

  async declarations(name: string, workspace: RefactorWorkspace): Promise<RefactorSymbol[]> {
    const python = (defs: RefactorIndexDefinition[]) => defs.filter((d) => PYTHON.test(d.path));
    let defs = name.includes('.')
      ? python(workspace.definitions({ qualifiedName: name }))
      : python(workspace.definitions({ name }));
    if (defs.length === 0 && name.includes('.')) {
      // `pkg.core.run`: a module path, then the qualified name inside that module
      const modules = moduleNames(workspace);
      const parts = name.split('.');
      for (let split = 1; split < parts.length && defs.length === 0; split += 1) {
        const module = parts.slice(0, split).join('.');
        defs = python(workspace.definitions({ qualifiedName: parts.slice(split).join('.') })).filter(
          (d) => modules.moduleOf(d.path) === module,
        );
      }
    }
    // `@overload` stubs and their implementation are one symbol
    return overloadedSymbols(defs);
  }

  async rename(request: RenameRequest, workspace: RefactorWorkspace): Promise<RenamePlan> {
    const { symbol, newName } = request;
    const { edits, declared, resolved } = this.#codeEdits(symbol, newName, workspace);
    const definition = declared.find((d) => d.name_line === symbol.line) ?? declared[0];
    if (request.includeComments) {
      const add = this.#adder(symbol, newName, workspace, edits);
      // comments, strings and docstrings: every whole-word mention (the index keeps only code-shaped ones)
      for (const file of workspace.files()) {
        if (!PYTHON.test(file.path)) continue;
        const text = workspace.read(file.path);
        if (text) for (const [line, col] of mentionsOf(text, symbol.name)) add(file.path, line, col, 'low');
      }
    }
    const collisions = definition
      ? this.#collisions(
          definition,
          newName,
          resolved.map((r) => r.path),
          workspace,
        )
      : [];
    return { edits: distinctEdits(edits), collisions, warnings: this.#dynamicNameWarnings(symbol, workspace) };
  }

  /**
   * The symbol's code references as `recon_impact` counts them: the declarations, what the index
   * resolved to them, and member accesses whose receiver this engine types to the symbol's class
   * (a constructor call, an annotation, `self`/`cls`, a default, a return annotation) — all `high`.
   * Receivers it cannot type stay the index's `medium`; those typed to another class are not returned.
   */
  async references(
    symbol: RefactorSymbol,
    workspace: RefactorWorkspace,
    options: { timeoutMs?: number } = {},
  ): Promise<EngineReference[]> {
    const deadline = Date.now() + (options.timeoutMs ?? Number.POSITIVE_INFINITY);
    const { edits, declared } = this.#codeEdits(symbol, symbol.name, workspace, deadline);
    const definitions = new Set(
      [
        { path: symbol.path, line: symbol.line, col: symbol.col },
        ...declared.map((d) => ({ path: d.path, line: d.name_line, col: d.name_col })),
      ].map((d) => `${d.path}:${d.line}:${d.col}`),
    );
    return distinctEdits(edits)
      .filter((edit) => edit.certainty === 'high')
      .map((edit) => ({
        path: edit.path,
        span: edit.span,
        certainty: 'high' as const,
        isDefinition: definitions.has(`${edit.path}:${edit.span.startLine}:${edit.span.startCol}`),
        by: 'receiver-type' as const,
      }));
  }

  /** An edit maker that checks the index's span still holds the name (it may lag a file edited seconds ago). */
  #adder(
    symbol: RefactorSymbol,
    newName: string,
    workspace: RefactorWorkspace,
    edits: RefactorEdit[],
  ): (path: string, line: number, col: number, certainty: Certainty) => void {
    const texts = new Map<string, string[] | undefined>();
    const lineOf = (path: string, line: number): string | undefined => {
      if (!texts.has(path)) texts.set(path, workspace.read(path)?.split('\n'));
      return texts.get(path)?.[line - 1];
    };
    return (path, line, col, certainty) => {
      if (lineOf(path, line)?.slice(col, col + symbol.name.length) !== symbol.name) return;
      edits.push({
        path,
        span: { startLine: line, startCol: col, endLine: line, endCol: col + symbol.name.length },
        oldText: symbol.name,
        newText: newName,
        certainty,
      });
    };
  }

  /**
   * The code edits of a rename: declarations and resolved references `high`; member accesses of the
   * name on an unresolved receiver judged by the receiver's type (`high`, `medium`, or left out).
   */
  #codeEdits(
    symbol: RefactorSymbol,
    newName: string,
    workspace: RefactorWorkspace,
    deadline = Number.POSITIVE_INFINITY,
  ): { edits: RefactorEdit[]; declared: RefactorIndexDefinition[]; resolved: RefactorIndexReference[] } {
    const declared = workspace.definitions({ path: symbol.path, qualifiedName: symbol.qualifiedName });
    const definition = declared.find((d) => d.name_line === symbol.line) ?? declared[0];
    const edits: RefactorEdit[] = [];
    const add = this.#adder(symbol, newName, workspace, edits);
    add(symbol.path, symbol.line, symbol.col, 'high');
    for (const overload of declared) add(overload.path, overload.name_line, overload.name_col, 'high');
    const resolved = declared.flatMap((d) => workspace.references({ toDefUid: d.def_uid }));
    for (const ref of resolved)
      if (ref.name === symbol.name && ref.context !== 'comment' && ref.context !== 'string')
        add(ref.path, ref.start_line, ref.start_col, 'high');
    const isMember = definition?.kind === 'method' || symbol.qualifiedName.includes('.');
    // a member of a class: each receiver's type decides (the method, not it, or unknown)
    const owner = isMember ? ownerClass(symbol, workspace) : null;
    const receivers = owner ? new PythonReceivers(workspace) : null;
    for (const ref of workspace.references({ name: symbol.name })) {
      if (!PYTHON.test(ref.path) || ref.context === 'comment' || ref.context === 'string') continue;
      if (
        ref.to_def_uid === null &&
        ref.qualifier !== null &&
        (isMember || !['self', 'cls'].includes(ref.qualifier)) &&
        !this.#externalModule(ref.path, ref.qualifier, workspace)
      ) {
        if (Date.now() > deadline)
          throw new AgentgovError(
            'E_DEADLINE_EXCEEDED',
            `the Python receiver typing did not finish typing the receivers of ${symbol.qualifiedName} in time`,
            { engine: this.name, symbol: symbol.qualifiedName },
          );
        const verdict =
          receivers && owner
            ? receivers.verdict(ref.path, ref.start_line, ref.start_col, owner, symbol.name)
            : 'medium';
        if (verdict !== 'none') add(ref.path, ref.start_line, ref.start_col, verdict);
      }
    }
    return { edits, declared, resolved };
  }

  /**
   * The defining module serves names at run time (a module `__getattr__`, `globals()[…]`, an
   * `__all__` built by code), or a package `__init__.py` above it does and mentions the name: uses
   * reached that way are invisible to the index, so the preview says so instead of breaking silently.
   */
  #dynamicNameWarnings(symbol: RefactorSymbol, workspace: RefactorWorkspace): string[] {
    // a module serves module-level names; a class member is not one of them
    if (symbol.qualifiedName.includes('.')) return [];
    const files = workspace.files().map((f) => f.path);
    const inits: string[] = [];
    for (let dir = posix.dirname(symbol.path); dir !== '.' && dir !== ''; dir = posix.dirname(dir)) {
      const init = `${dir}/__init__.py`;
      if (!files.includes(init)) break;
      if (init !== symbol.path) inits.push(init);
    }
    const warnings: string[] = [];
    for (const path of [symbol.path, ...inits]) {
      const text = workspace.read(path);
      if (text === undefined) continue;
      const mentioned = new RegExp(`\\b${symbol.name}\\b`);
      if (path !== symbol.path && !mentioned.test(text)) continue;
      // the defining module: any source (`globals()[f"_{name}"]` spells no name); a package above: one naming it
      const sources = dynamicNameSources(this.#parser.parse(text).rootNode).filter(
        (s) => path === symbol.path || mentioned.test(s.body),
      );
      if (sources.length === 0) continue;
      const where = sources
        .slice(0, 4)
        .map((s) => `${s.kind} at line ${s.line}: ${s.text}`)
        .join('; ');
      warnings.push(
        `${path} serves names at run time (${where}${sources.length > 4 ? `; ${sources.length - 4} more` : ''}): ` +
          (`code reaching ${symbol.name} through them (a name looked up on the module, ` +
            `a deprecated alias, a string key) is not in the index, `) +
          'so the rename cannot edit it — check those places by hand before committing.',
      );
    }
    return warnings;
  }

  /**
   * `werkzeug.utils.x`: the qualifier names a module imported from outside the repository, so `x`
   * is not ours. A value reached through a call or subscript (`click.get_current_context().obj.x`)
   * can hold an object of ours: still a `medium` candidate.
   */
  #externalModule(path: string, qualifier: string, workspace: RefactorWorkspace): boolean {
    if (!/^[\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)*$/u.test(qualifier)) return false;
    const root = qualifier.split('.')[0]!;
    return workspace
      .imports(path)
      .some((edge) => edge.to_path === null && edge.bindings.some((b) => b.local === qualifier || b.local === root));
  }

  /**
   * The new name already defined beside the renamed one (same module level or same class), or bound in a module that
   * imports it.
   */
  #collisions(
    definition: RefactorIndexDefinition,
    newName: string,
    usedIn: string[],
    workspace: RefactorWorkspace,
  ): RenameCollision[] {
    const collisions: RenameCollision[] = [];
    const owner = definition.qualified_name.includes('.')
      ? definition.qualified_name.slice(0, definition.qualified_name.lastIndexOf('.'))
      : null;
    const sibling = owner ? `${owner}.${newName}` : newName;
    for (const taken of workspace.definitions({ path: definition.path, qualifiedName: sibling })) {
      collisions.push({
        path: taken.path,
        line: taken.name_line,
        existing: owner ? `member ${newName} of ${owner}` : `${taken.kind} ${newName}`,
      });
    }
    if (owner) return collisions;
    for (const path of new Set(usedIn)) {
      if (path === definition.path) continue;
      const local = workspace.definitions({ path, qualifiedName: newName })[0];
      const imported = workspace.imports(path).find((edge) => edge.bindings.some((b) => b.local === newName));
      if (local) collisions.push({ path, line: local.name_line, existing: `${local.kind} ${newName}` });
      else if (imported) collisions.push({ path, line: imported.line, existing: `import ${newName}` });
    }
    return collisions;
  }

  async move(request: MoveRequest, workspace: RefactorWorkspace): Promise<MovePlan> {
    const files = workspace
      .files()
      .filter((f) => PYTHON.test(f.path))
      .map((f) => f.path);
    const fileSet = new Set(files);
    const movedDir = request.files.length > 1 || request.files[0]?.from !== request.from ? request : null;
    const oldNames = new PythonModuleNames((dir) => fileSet.has(`${dir}/__init__.py`));
    // after the move: a directory under the destination is a package when its source directory was one
    const allFiles = workspace.files().map((f) => f.path);
    const isNewPackage = (dir: string): boolean => {
      if (movedDir && (dir === movedDir.to || dir.startsWith(`${movedDir.to}/`)))
        return fileSet.has(`${movedDir.from}${dir.slice(movedDir.to.length)}/__init__.py`);
      if (fileSet.has(`${dir}/__init__.py`)) return true;
      // a directory the move creates inside a package is a (namespace) subpackage of it
      const parent = posix.dirname(dir);
      return parent !== '.' && !allFiles.some((f) => f.startsWith(`${dir}/`)) && isNewPackage(parent);
    };
    const newNames = new PythonModuleNames(isNewPackage);
    const newPathOf = (path: string) => request.files.find((f) => f.from === path)?.to ?? path;
    const renames = request.files.map((f) => ({ old: oldNames.moduleOf(f.from), next: newNames.moduleOf(f.to) }));
    // for a directory of modules, the package itself moves (prefix rename); for one file, that module
    const rename = (module: string): string | null => {
      for (const r of renames) {
        const found = module === r.old ? r.next : null;
        if (found) return found;
      }
      if (movedDir) {
        const oldPkg = oldNames.moduleOf(`${movedDir.from}/__init__.py`);
        const newPkg = newNames.moduleOf(`${movedDir.to}/__init__.py`);
        if (oldPkg) return renamedModule(module, oldPkg, newPkg);
      }
      return null;
    };
    // a module whose `import` reaches a moving module: itself or one of its submodules moves
    const oldModules = [
      ...renames.map((r) => r.old),
      ...(movedDir ? [oldNames.moduleOf(`${movedDir.from}/__init__.py`)] : []),
    ].filter(Boolean);
    const reaches = (module: string) => oldModules.some((old) => old === module || old.startsWith(`${module}.`));
    const edits: RefactorEdit[] = [];
    const unedited: UneditedReference[] = [];
    for (const path of files) {
      const text = workspace.read(path);
      if (text === undefined) continue;
      const lines = text.split('\n');
      const oldPackage = oldNames.packageOf(path);
      const newPackage = newNames.packageOf(newPathOf(path));
      const attributeRoots = new Map<string, string>();
      for (const edge of workspace.imports(path))
        this.#rewriteImport(edge, lines, oldPackage, newPackage, rename, reaches, edits, attributeRoots);
      // `import a.b` statements rewritten to the new module: their uses `a.b.x` follow it wherever it goes
      const imported = new Set(
        workspace
          .imports(path)
          .filter((e) => e.bindings.length === 1 && e.bindings[0]!.local === e.specifier)
          .map((e) => e.specifier),
      );
      for (const [local, module] of attributeRoots)
        this.#qualifiedUses(path, text, lines, { local, module, imported }, rename, edits, unedited);
    }
    if (request.includeComments) {
      for (const r of renames) if (r.old && r.old !== r.next) this.#mentions(files, r.old, r.next, workspace, edits);
    }
    return { edits, unedited };
  }

  /**
   * One import statement: its module specifier (and, for `from pkg import module`, the imported name), plus `a.b.x`
   * uses of `import a.b`.
   */
  #rewriteImport(
    edge: RefactorIndexImport,
    lines: string[],
    oldPackage: string[],
    newPackage: string[],
    rename: (m: string) => string | null,
    reaches: (m: string) => boolean,
    edits: RefactorEdit[],
    attributeRoots: Map<string, string>,
  ): void {
    const path = edge.from_path;
    const target = absoluteModule(edge.specifier, oldPackage);
    if (target === null) return;
    const relative = edge.specifier.startsWith('.');
    const spell = (module: string) => (relative ? (relativeSpecifier(module, newPackage) ?? module) : module);
    const moved = rename(target);
    const statement = lines[edge.line - 1] ?? '';
    const isFrom = /^\s*from\b/.test(statement);
    const importerMoved = relative && oldPackage.join('.') !== newPackage.join('.');
    if (isFrom && edge.bindings.length === 1 && edge.bindings[0]!.imported === '*') {
      // `from pkg import module [as m]`: the index records it as module `pkg.module`; the source spells `pkg` and
      // `module`
      if (moved === null && !importerMoved) return;
      const binding = edge.bindings[0]!;
      const writtenName = edge.specifier.slice(edge.specifier.lastIndexOf('.') + 1);
      const writtenPackage = edge.specifier
        .slice(0, edge.specifier.length - writtenName.length)
        .replace(/(?<=[^.])\.$/, '');
      const next = moved ?? target;
      const nextParent = next.slice(0, Math.max(0, next.lastIndexOf('.')));
      const nextStem = next.slice(next.lastIndexOf('.') + 1);
      const single = !/,/.test(statement.slice(statement.search(/\bimport\b/)));
      const nextPackage = spell(nextParent);
      if (nextPackage !== writtenPackage && single)
        this.#replaceSpecifier(path, lines, { ...edge, specifier: writtenPackage }, nextPackage, edits);
      if (nextStem !== writtenName)
        this.#replaceName(
          path,
          lines,
          edge.line,
          writtenName,
          binding.local === writtenName ? `${nextStem} as ${writtenName}` : nextStem,
          edits,
        );
      return;
    }
    const local = edge.bindings.length === 1 ? edge.bindings[0]!.local : null;
    if (!isFrom && !relative && local && reaches(target)) {
      // `import a.b` binds `a` (uses spell `a.b.x`, `a.c.y`); `import a.b as z` binds `z` to `a.b`
      const aliased = local !== edge.specifier;
      const root = aliased ? local : local.split('.')[0]!;
      if (!attributeRoots.has(root)) attributeRoots.set(root, aliased ? target : target.split('.')[0]!);
    }
    if (moved === null && !importerMoved) return;
    const next = spell(moved ?? target);
    if (next !== edge.specifier) this.#replaceSpecifier(path, lines, edge, next, edits);
  }

  #replaceSpecifier(
    path: string,
    lines: string[],
    edge: RefactorIndexImport,
    next: string,
    edits: RefactorEdit[],
  ): void {
    const line = lines[edge.line - 1] ?? '';
    const escaped = edge.specifier.replace(/\./g, '\\.');
    const match = new RegExp(
      `(?<=^\\s*from\\s+|\\bimport\\s+(?:[\\w.]+(?:\\s+as\\s+\\w+)?\\s*,\\s*)*)${escaped}(?=[\\s,;)#]|$)`,
    ).exec(line);
    if (!match) return;
    edits.push({
      path,
      span: {
        startLine: edge.line,
        startCol: match.index,
        endLine: edge.line,
        endCol: match.index + edge.specifier.length,
      },
      oldText: edge.specifier,
      newText: next,
      certainty: 'high',
    });
  }

  /** The imported name of a `from x import …` statement, searched from its first line on (parenthesised lists). */
  #replaceName(
    path: string,
    lines: string[],
    firstLine: number,
    name: string,
    next: string,
    edits: RefactorEdit[],
  ): void {
    for (let line = firstLine; line < Math.min(lines.length, firstLine + 50) + 1; line += 1) {
      const text = lines[line - 1] ?? '';
      const from = line === firstLine ? text.search(/\bimport\b/) + 6 : 0;
      const match = new RegExp(`(?<![\\w.])${name}(?![\\w.])`).exec(text.slice(from));
      if (match) {
        const col = from + match.index;
        edits.push({
          path,
          span: { startLine: line, startCol: col, endLine: line, endCol: col + name.length },
          oldText: name,
          newText: next,
          certainty: 'high',
        });
        return;
      }
      if (line > firstLine && !/[(,\\]\s*$/.test(lines[line - 2] ?? '') && !text.includes(')')) return;
    }
  }

  /**
   * `import a.b [as z]`: a use `a.b.c.x` (`z.c.x`) is an attribute path through the imported module.
   * The shortest module on that path that moves is respelled: the imported module itself, or a
   * submodule reached through it (`import flask` … `flask.templating.Environment` when
   * `flask/templating.py` moves into `flask/rendering/`). The paths are found in the file's code
   * text (comments and strings excluded), not only among the index's references: a name the module
   * serves at run time (`click.parser.OptionParser` through a module `__getattr__`) has no definition
   * the index could resolve it to. A path to a module moved out of the imported package's reach
   * (another top-level package) cannot be respelled and is listed as unedited.
   */
  #qualifiedUses(
    path: string,
    text: string,
    lines: string[],
    binding: { local: string; module: string; imported: Set<string> },
    rename: (m: string) => string | null,
    edits: RefactorEdit[],
    unedited: UneditedReference[],
  ): void {
    const { local, module } = binding;
    const top = (name: string) => name.split('.')[0];
    const code = codeOnly(text).split('\n');
    const pattern = new RegExp(
      `(?<![\\w.])${local.replace(/\./g, '\\.')}((?:\\s*\\.\\s*[\\p{L}_][\\p{L}\\p{N}_]*)+)`,
      'gu',
    );
    code.forEach((line, i) => {
      if (/^\s*(?:import|from)\s/.test(line)) return;
      for (const match of line.matchAll(pattern)) {
        const rest = match[1]!
          .split('.')
          .map((part) => part.trim())
          .filter(Boolean);
        for (let n = 1; n <= rest.length; n += 1) {
          const moved = rename([module, ...rest.slice(0, n)].join('.'));
          if (moved === null) continue;
          const written = [local, ...rest.slice(0, n)].join('.');
          let next: string | null = null;
          if (moved.startsWith(`${module}.`)) next = local + moved.slice(module.length);
          else if (local === module && (top(moved) === top(module) || binding.imported.has(written))) next = moved;
          const start = match.index;
          if (next === null) {
            unedited.push({
              path,
              line: i + 1,
              column: start,
              text: lines[i]?.trim(),
              certainty: 'high',
              reason: `${written} moves to ${moved}, which no attribute path through ${local} reaches: import it there`,
            });
          } else if (next !== written && lines[i]?.slice(start, start + written.length) === written) {
            edits.push({
              path,
              span: { startLine: i + 1, startCol: start, endLine: i + 1, endCol: start + written.length },
              oldText: written,
              newText: next,
              certainty: 'high',
            });
          }
          break;
        }
      }
    });
  }

  /** The old dotted module name inside string literals (`mock.patch("pkg.mod.f")`): low certainty. */
  #mentions(files: string[], old: string, next: string, workspace: RefactorWorkspace, edits: RefactorEdit[]): void {
    const pattern = new RegExp(`(?<=["'])${old.replace(/\./g, '\\.')}(?=[."'])`, 'g');
    for (const path of files) {
      const text = workspace.read(path);
      if (!text?.includes(old)) continue;
      text.split('\n').forEach((line, i) => {
        for (const match of line.matchAll(pattern)) {
          edits.push({
            path,
            span: { startLine: i + 1, startCol: match.index, endLine: i + 1, endCol: match.index + old.length },
            oldText: old,
            newText: next,
            certainty: 'low',
          });
        }
      });
    }
  }
}

/** The class a method is declared in (`Outer.Inner` of `Outer.Inner.run`), or null when its owner is not a class. */
function ownerClass(symbol: RefactorSymbol, workspace: RefactorWorkspace): RefactorIndexDefinition | null {
  const dot = symbol.qualifiedName.lastIndexOf('.');
  if (dot < 0) return null;
  const owner = workspace
    .definitions({ path: symbol.path, qualifiedName: symbol.qualifiedName.slice(0, dot) })
    .find((d) => d.kind === 'class');
  return owner ?? null;
}

/** The text with every comment and string literal blanked (same length, newlines kept): what is code. */
function codeOnly(text: string): string {
  let out = '';
  let at = 0;
  for (const [start, end] of commentAndStringRanges(text)) {
    out += text.slice(at, start) + text.slice(start, end).replace(/[^\n]/g, ' ');
    at = end;
  }
  return out + text.slice(at);
}

function moduleNames(workspace: RefactorWorkspace): PythonModuleNames {
  const files = new Set(workspace.files().map((f) => f.path));
  return new PythonModuleNames((dir) => files.has(posix.join(dir, '__init__.py')));
}
