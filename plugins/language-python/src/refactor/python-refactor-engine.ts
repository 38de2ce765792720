import { posix } from 'node:path';
import type {
  Certainty,
  MovePlan,
  MoveRequest,
  RefactorEdit,
  RefactorEngine,
  RefactorIndexDefinition,
  RefactorIndexImport,
  RefactorSymbol,
  RefactorWorkspace,
  RenameCollision,
  RenamePlan,
  RenameRequest,
} from '@agentgov/core/contracts';
import { mentionsOf } from './python-mentions.js';
import { absoluteModule, PythonModuleNames, relativeSpecifier, renamedModule } from './python-modules.js';

const PYTHON = /\.pyi?$/;
const KEYWORDS = new Set([
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except',
  'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try',
  'while', 'with', 'yield',
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

  checkIdentifier(name: string): string | null {
    if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name)) return `'${name}' is not a valid Python identifier`;
    if (KEYWORDS.has(name)) return `'${name}' is a Python keyword`;
    return null;
  }

  async declarations(name: string, workspace: RefactorWorkspace): Promise<RefactorSymbol[]> {
    const python = (defs: RefactorIndexDefinition[]) => defs.filter((d) => PYTHON.test(d.path));
    let defs = name.includes('.') ? python(workspace.definitions({ qualifiedName: name })) : python(workspace.definitions({ name }));
    if (defs.length === 0 && name.includes('.')) {
      // `pkg.core.run`: a module path, then the qualified name inside that module
      const modules = moduleNames(workspace);
      const parts = name.split('.');
      for (let split = 1; split < parts.length && defs.length === 0; split += 1) {
        const module = parts.slice(0, split).join('.');
        defs = python(workspace.definitions({ qualifiedName: parts.slice(split).join('.') })).filter((d) => modules.moduleOf(d.path) === module);
      }
    }
    // `@overload` stubs and their implementation are one symbol
    const symbols = new Map<string, RefactorSymbol>();
    for (const d of defs) {
      const key = `${d.path}\0${d.qualified_name}`;
      const first = symbols.get(key);
      if (first) (first.moreLines ??= []).push(d.name_line);
      else symbols.set(key, { path: d.path, name: d.name, qualifiedName: d.qualified_name, kind: d.kind, line: d.name_line, col: d.name_col });
    }
    return [...symbols.values()];
  }

  async rename(request: RenameRequest, workspace: RefactorWorkspace): Promise<RenamePlan> {
    const { symbol, newName } = request;
    const declared = workspace.definitions({ path: symbol.path, qualifiedName: symbol.qualifiedName });
    const definition = declared.find((d) => d.name_line === symbol.line) ?? declared[0];
    const edits: RefactorEdit[] = [];
    const texts = new Map<string, string[] | undefined>();
    const lineOf = (path: string, line: number): string | undefined => {
      if (!texts.has(path)) texts.set(path, workspace.read(path)?.split('\n'));
      return texts.get(path)?.[line - 1];
    };
    const add = (path: string, line: number, col: number, certainty: Certainty) => {
      // the index's span must still hold the name (it may lag a file edited seconds ago)
      if (lineOf(path, line)?.slice(col, col + symbol.name.length) !== symbol.name) return;
      edits.push({ path, span: { startLine: line, startCol: col, endLine: line, endCol: col + symbol.name.length }, oldText: symbol.name, newText: newName, certainty });
    };
    add(symbol.path, symbol.line, symbol.col, 'high');
    for (const overload of declared) add(overload.path, overload.name_line, overload.name_col, 'high');
    const resolved = declared.flatMap((d) => workspace.references({ toDefUid: d.def_uid }));
    for (const ref of resolved) if (ref.name === symbol.name && ref.context !== 'comment' && ref.context !== 'string') add(ref.path, ref.start_line, ref.start_col, 'high');
    const isMember = definition?.kind === 'method' || symbol.qualifiedName.includes('.');
    for (const ref of workspace.references({ name: symbol.name })) {
      if (!PYTHON.test(ref.path) || ref.context === 'comment' || ref.context === 'string') continue;
      if (ref.to_def_uid === null && ref.qualifier !== null && (isMember || !['self', 'cls'].includes(ref.qualifier)) && !this.#externalModule(ref.path, ref.qualifier, workspace)) {
        add(ref.path, ref.start_line, ref.start_col, 'medium');
      }
    }
    if (request.includeComments) {
      // comments, strings and docstrings: every whole-word mention (the index keeps only code-shaped ones)
      for (const file of workspace.files()) {
        if (!PYTHON.test(file.path)) continue;
        const text = workspace.read(file.path);
        if (text) for (const [line, col] of mentionsOf(text, symbol.name)) add(file.path, line, col, 'low');
      }
    }
    return { edits: distinct(edits), collisions: definition ? this.#collisions(definition, newName, resolved.map((r) => r.path), workspace) : [] };
  }

  /**
   * `werkzeug.utils.x`: the qualifier names a module imported from outside the repository, so `x`
   * is not ours. A value reached through a call or subscript (`click.get_current_context().obj.x`)
   * can hold an object of ours: still a `medium` candidate.
   */
  #externalModule(path: string, qualifier: string, workspace: RefactorWorkspace): boolean {
    if (!/^[\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)*$/u.test(qualifier)) return false;
    const root = qualifier.split('.')[0]!;
    return workspace.imports(path).some((edge) => edge.to_path === null && edge.bindings.some((b) => b.local === qualifier || b.local === root));
  }

  /** The new name already defined beside the renamed one (same module level or same class), or bound in a module that imports it. */
  #collisions(definition: RefactorIndexDefinition, newName: string, usedIn: string[], workspace: RefactorWorkspace): RenameCollision[] {
    const collisions: RenameCollision[] = [];
    const owner = definition.qualified_name.includes('.') ? definition.qualified_name.slice(0, definition.qualified_name.lastIndexOf('.')) : null;
    const sibling = owner ? `${owner}.${newName}` : newName;
    for (const taken of workspace.definitions({ path: definition.path, qualifiedName: sibling })) {
      collisions.push({ path: taken.path, line: taken.name_line, existing: owner ? `member ${newName} of ${owner}` : `${taken.kind} ${newName}` });
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
    const files = workspace.files().filter((f) => PYTHON.test(f.path)).map((f) => f.path);
    const fileSet = new Set(files);
    const movedDir = request.files.length > 1 || request.files[0]?.from !== request.from ? request : null;
    const oldNames = new PythonModuleNames((dir) => fileSet.has(`${dir}/__init__.py`));
    // after the move: a directory under the destination is a package when its source directory was one
    const allFiles = workspace.files().map((f) => f.path);
    const isNewPackage = (dir: string): boolean => {
      if (movedDir && (dir === movedDir.to || dir.startsWith(`${movedDir.to}/`))) return fileSet.has(`${movedDir.from}${dir.slice(movedDir.to.length)}/__init__.py`);
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
    const oldModules = [...renames.map((r) => r.old), ...(movedDir ? [oldNames.moduleOf(`${movedDir.from}/__init__.py`)] : [])].filter(Boolean);
    const reaches = (module: string) => oldModules.some((old) => old === module || old.startsWith(`${module}.`));
    const edits: RefactorEdit[] = [];
    for (const path of files) {
      const text = workspace.read(path);
      if (text === undefined) continue;
      const lines = text.split('\n');
      const oldPackage = oldNames.packageOf(path);
      const newPackage = newNames.packageOf(newPathOf(path));
      for (const edge of workspace.imports(path)) this.#rewriteImport(edge, lines, oldPackage, newPackage, rename, reaches, edits, workspace);
    }
    if (request.includeComments) {
      for (const r of renames) if (r.old && r.old !== r.next) this.#mentions(files, r.old, r.next, workspace, edits);
    }
    return { edits };
  }

  /** One import statement: its module specifier (and, for `from pkg import module`, the imported name), plus `a.b.x` uses of `import a.b`. */
  #rewriteImport(edge: RefactorIndexImport, lines: string[], oldPackage: string[], newPackage: string[], rename: (m: string) => string | null, reaches: (m: string) => boolean, edits: RefactorEdit[], workspace: RefactorWorkspace): void {
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
      // `from pkg import module [as m]`: the index records it as module `pkg.module`; the source spells `pkg` and `module`
      if (moved === null && !importerMoved) return;
      const binding = edge.bindings[0]!;
      const writtenName = edge.specifier.slice(edge.specifier.lastIndexOf('.') + 1);
      const writtenPackage = edge.specifier.slice(0, edge.specifier.length - writtenName.length).replace(/(?<=[^.])\.$/, '');
      const next = moved ?? target;
      const nextParent = next.slice(0, Math.max(0, next.lastIndexOf('.')));
      const nextStem = next.slice(next.lastIndexOf('.') + 1);
      const single = !/,/.test(statement.slice(statement.search(/\bimport\b/)));
      const nextPackage = spell(nextParent);
      if (nextPackage !== writtenPackage && single) this.#replaceSpecifier(path, lines, { ...edge, specifier: writtenPackage }, nextPackage, edits);
      if (nextStem !== writtenName) this.#replaceName(path, lines, edge.line, writtenName, binding.local === writtenName ? `${nextStem} as ${writtenName}` : nextStem, edits);
      return;
    }
    const local = edge.bindings.length === 1 ? edge.bindings[0]!.local : null;
    if (!isFrom && !relative && local && reaches(target)) this.#qualifiedUses(path, lines, local, target, rename, edits, workspace);
    if (moved === null && !importerMoved) return;
    const next = spell(moved ?? target);
    if (next !== edge.specifier) this.#replaceSpecifier(path, lines, edge, next, edits);
  }

  #replaceSpecifier(path: string, lines: string[], edge: RefactorIndexImport, next: string, edits: RefactorEdit[]): void {
    const line = lines[edge.line - 1] ?? '';
    const escaped = edge.specifier.replace(/\./g, '\\.');
    const match = new RegExp(`(?<=^\\s*from\\s+|\\bimport\\s+(?:[\\w.]+(?:\\s+as\\s+\\w+)?\\s*,\\s*)*)${escaped}(?=[\\s,;)#]|$)`).exec(line);
    if (!match) return;
    edits.push({ path, span: { startLine: edge.line, startCol: match.index, endLine: edge.line, endCol: match.index + edge.specifier.length }, oldText: edge.specifier, newText: next, certainty: 'high' });
  }

  /** The imported name of a `from x import …` statement, searched from its first line on (parenthesised lists). */
  #replaceName(path: string, lines: string[], firstLine: number, name: string, next: string, edits: RefactorEdit[]): void {
    for (let line = firstLine; line < Math.min(lines.length, firstLine + 50) + 1; line += 1) {
      const text = lines[line - 1] ?? '';
      const from = line === firstLine ? text.search(/\bimport\b/) + 6 : 0;
      const match = new RegExp(`(?<![\\w.])${name}(?![\\w.])`).exec(text.slice(from));
      if (match) {
        const col = from + match.index;
        edits.push({ path, span: { startLine: line, startCol: col, endLine: line, endCol: col + name.length }, oldText: name, newText: next, certainty: 'high' });
        return;
      }
      if (line > firstLine && !/[(,\\]\s*$/.test(lines[line - 2] ?? '') && !text.includes(')')) return;
    }
  }

  /**
   * `import a.b [as z]`: a use `a.b.c.x` (`z.c.x`) carries its module path as the qualifier of `x`.
   * The shortest module on that path that moves is respelled: the imported module itself (`import
   * a.b` → its uses become the new name; an alias stays as it is, the statement changes), or a
   * submodule reached through it (`import flask` … `flask.templating.Environment` when
   * `flask/templating.py` moves into `flask/rendering/`). A submodule moved out of the imported
   * package's reach (another top-level package) is left alone: no attribute path can name it.
   */
  #qualifiedUses(path: string, lines: string[], local: string, module: string, rename: (m: string) => string | null, edits: RefactorEdit[], workspace: RefactorWorkspace): void {
    const seen = new Set<string>();
    const top = (name: string) => name.split('.')[0];
    for (const ref of workspace.references({ path })) {
      const chain = ref.qualifier === null ? ref.name : `${ref.qualifier}.${ref.name}`;
      if (chain !== local && !chain.startsWith(`${local}.`)) continue;
      const start = ref.qualifier === null ? ref.start_col : ref.start_col - ref.qualifier.length - 1;
      const text = lines[ref.start_line - 1] ?? '';
      const rest = chain.slice(local.length).split('.').filter(Boolean);
      for (let n = 0; n <= rest.length; n += 1) {
        const moved = rename([module, ...rest.slice(0, n)].join('.'));
        if (moved === null) continue;
        const written = [local, ...rest.slice(0, n)].join('.');
        let next: string | null = null;
        if (n === 0) next = local === module ? moved : null;
        else if (moved.startsWith(`${module}.`)) next = local + moved.slice(module.length);
        else if (local === module && top(moved) === top(module)) next = moved; // `import a.b` binds `a`
        const key = `${ref.start_line}:${start}`;
        if (next !== null && next !== written && start >= 0 && text.slice(start, start + written.length) === written && !seen.has(key)) {
          seen.add(key);
          edits.push({ path, span: { startLine: ref.start_line, startCol: start, endLine: ref.start_line, endCol: start + written.length }, oldText: written, newText: next, certainty: 'high' });
        }
        break;
      }
    }
  }

  /** The old dotted module name inside string literals (`mock.patch("pkg.mod.f")`): low certainty. */
  #mentions(files: string[], old: string, next: string, workspace: RefactorWorkspace, edits: RefactorEdit[]): void {
    const pattern = new RegExp(`(?<=["'])${old.replace(/\./g, '\\.')}(?=[."'])`, 'g');
    for (const path of files) {
      const text = workspace.read(path);
      if (!text?.includes(old)) continue;
      text.split('\n').forEach((line, i) => {
        for (const match of line.matchAll(pattern)) {
          edits.push({ path, span: { startLine: i + 1, startCol: match.index, endLine: i + 1, endCol: match.index + old.length }, oldText: old, newText: next, certainty: 'low' });
        }
      });
    }
  }
}

/** One edit per position: a position found both as code and as a mention keeps the first (the code one). */
function distinct(edits: RefactorEdit[]): RefactorEdit[] {
  const seen = new Set<string>();
  return edits.filter((edit) => {
    const key = `${edit.path}:${edit.span.startLine}:${edit.span.startCol}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function moduleNames(workspace: RefactorWorkspace): PythonModuleNames {
  const files = new Set(workspace.files().map((f) => f.path));
  return new PythonModuleNames((dir) => files.has(posix.join(dir, '__init__.py')));
}

