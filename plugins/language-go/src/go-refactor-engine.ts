import { posix } from 'node:path';
import { distinctEdits, indexSymbol, RenameEdits } from '@agentgov/core/contracts';
import type {
  MovePlan,
  MoveRequest,
  RefactorEdit,
  RefactorEngine,
  RefactorIndexDefinition,
  RefactorSymbol,
  RefactorWorkspace,
  RenameCollision,
  RenamePlan,
  RenameRequest,
  UneditedReference,
} from '@agentgov/core/contracts';
import { AgentgovError } from '@agentgov/core/errors';
import Parser from 'tree-sitter';
import Go from 'tree-sitter-go';
import { GoModules } from './go-modules.js';
import { defaultPackageName } from './go-walker.js';

const GO = /\.go$/;
const KEYWORDS = new Set([
  'break',
  'case',
  'chan',
  'const',
  'continue',
  'default',
  'defer',
  'else',
  'fallthrough',
  'for',
  'func',
  'go',
  'goto',
  'if',
  'import',
  'interface',
  'map',
  'package',
  'range',
  'return',
  'select',
  'struct',
  'switch',
  'type',
  'var',
]);
const MEMBER_KINDS = new Set(['method', 'field']);

function dirOf(path: string): string {
  const dir = posix.dirname(path);
  return dir === '.' ? '' : dir;
}

function isExported(name: string): boolean {
  const first = name.charAt(0);
  return first !== first.toLowerCase();
}

/**
 * Rename and move for Go from the index's own resolution. A rename edits the declaration and every
 * reference the index resolved to it (through the package scope, imports and method receivers) as
 * `high`; for a method or field, a same-name member access on a value the index cannot type is
 * `medium`; mentions in comments and strings are `low`. A move relocates whole packages: it rewrites
 * the import path of every importer (keeping the package name by an alias when the new directory's
 * name differs); moving one file out of its package is refused.
 */
export class GoRefactorEngine implements RefactorEngine {
  readonly name = 'go-index-resolution';
  readonly #parser = new Parser();

  constructor() {
    this.#parser.setLanguage(Go as Parser.Language);
  }

  checkIdentifier(name: string): string | null {
    if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name)) return `'${name}' is not a valid Go identifier`;
    if (KEYWORDS.has(name)) return `'${name}' is a Go keyword`;
    if (name === '_') return "'_' is Go's blank identifier";
    return null;
  }

  async declarations(name: string, workspace: RefactorWorkspace): Promise<RefactorSymbol[]> {
    const go = (defs: RefactorIndexDefinition[]) => defs.filter((d) => GO.test(d.path) && d.kind !== 'module');
    const defs = name.includes('.')
      ? go(workspace.definitions({ qualifiedName: name }))
      : go(workspace.definitions({ name }));
    return defs.map(indexSymbol);
  }

  async rename(request: RenameRequest, workspace: RefactorWorkspace): Promise<RenamePlan> {
    const { symbol, newName } = request;
    const declared = workspace.definitions({ path: symbol.path, qualifiedName: symbol.qualifiedName });
    const definition = declared.find((d) => d.name_line === symbol.line) ?? declared[0];
    const plan = new RenameEdits(symbol, newName, workspace);
    const add = plan.add.bind(plan);
    add(symbol.path, symbol.line, symbol.col, 'high');
    const resolved = plan.addResolved(declared, workspace);
    const isMember = MEMBER_KINDS.has(definition?.kind ?? symbol.kind) || symbol.qualifiedName.includes('.');
    const unedited: UneditedReference[] = [];
    if (isMember) {
      // `x.Name` on a value the index cannot type, and `T{Name: …}` keys: the same member or another type's
      for (const ref of workspace.references({ name: symbol.name })) {
        if (!GO.test(ref.path) || ref.to_def_uid !== null) continue;
        if (ref.context === 'comment' || ref.context === 'string') continue;
        const keyed = ref.qualifier === null && ref.context === 'member' && definition?.kind === 'field';
        if (ref.qualifier === null ? !keyed : this.#externalPackage(ref.path, ref.qualifier, workspace)) continue;
        add(ref.path, ref.start_line, ref.start_col, 'medium');
      }
    }
    if (request.includeComments) {
      for (const file of plan.filesMentioning(workspace, GO))
        for (const [line, col] of this.#mentions(file.text, symbol.name)) add(file.path, line, col, 'low');
    }
    const warnings: string[] = [];
    if (definition && isExported(symbol.name) && !isExported(newName)) {
      const outside = [...new Set(resolved.map((r) => r.path))].filter((p) => dirOf(p) !== dirOf(definition.path));
      if (outside.length > 0)
        warnings.push(
          `${newName} is unexported (lower-case): ` +
            `${outside.length} file${outside.length === 1 ? '' : 's'} of other packages ` +
            `(${outside.slice(0, 3).join(', ')}) use ${symbol.name} and will no longer compile.`,
        );
    }
    if (definition?.kind === 'method') {
      // Go interfaces are satisfied by method name: an interface naming the old one may stop being satisfied
      const interfaces = workspace
        .definitions({ name: symbol.name })
        .filter((d) => d.kind === 'method' && GO.test(d.path) && d.def_uid !== definition.def_uid)
        .filter(
          (d) =>
            workspace.definitions({ path: d.path, qualifiedName: d.qualified_name.split('.')[0]! })[0]?.kind ===
            'interface',
        );
      for (const iface of interfaces)
        warnings.push(
          `interface ${iface.qualified_name.split('.')[0]} (` +
            `${iface.path}:${iface.name_line}) declares ` +
            `${symbol.name}: ` +
            `after the rename ${symbol.qualifiedName.split('.')[0]} may no longer satisfy it.`,
        );
    }
    const collisions = definition
      ? this.#collisions(
          definition,
          newName,
          resolved.map((r) => r.path),
          workspace,
        )
      : [];
    return { edits: distinctEdits(plan.edits, 'surest'), collisions, unedited, warnings };
  }

  /** `strings.X`: the qualifier is an import from outside the repository (standard library, a dependency). */
  #externalPackage(path: string, qualifier: string, workspace: RefactorWorkspace): boolean {
    return workspace
      .imports(path)
      .some((edge) => edge.to_path === null && edge.bindings.some((b) => b.local === qualifier));
  }

  /** Whole-word mentions in comments and string literals, found on the syntax tree: [line, column]. */
  #mentions(text: string, name: string): Array<[number, number]> {
    const found: Array<[number, number]> = [];
    const word = new RegExp(`(?<![\\w.])${name}(?!\\w)`, 'g');
    const visit = (node: Parser.SyntaxNode): void => {
      if (node.type === 'comment' || node.type === 'interpreted_string_literal' || node.type === 'raw_string_literal') {
        if (node.parent?.type === 'import_spec') return;
        const lines = node.text.split('\n');
        lines.forEach((line, i) => {
          for (const match of line.matchAll(word))
            found.push([node.startPosition.row + 1 + i, (i === 0 ? node.startPosition.column : 0) + match.index]);
        });
        return;
      }
      for (const child of node.namedChildren) visit(child);
    };
    visit(this.#parser.parse(text).rootNode);
    return found;
  }

  /** The new name already declared in the package (top level) or on the same type (a member). */
  #collisions(
    definition: RefactorIndexDefinition,
    newName: string,
    usedIn: string[],
    workspace: RefactorWorkspace,
  ): RenameCollision[] {
    const collisions: RenameCollision[] = [];
    const dot = definition.qualified_name.lastIndexOf('.');
    const owner = dot >= 0 ? definition.qualified_name.slice(0, dot) : null;
    const qualified = owner ? `${owner}.${newName}` : newName;
    const dir = dirOf(definition.path);
    for (const taken of workspace.definitions({ qualifiedName: qualified })) {
      if (!GO.test(taken.path) || dirOf(taken.path) !== dir || taken.kind === 'module') continue;
      collisions.push({
        path: taken.path,
        line: taken.name_line,
        existing: owner ? `member ${newName} of ${owner}` : `${taken.kind} ${newName}`,
      });
    }
    if (owner) return collisions;
    // a file of the package that imports a package under the new name
    for (const path of new Set([definition.path, ...usedIn])) {
      if (dirOf(path) !== dir) continue;
      const imported = workspace.imports(path).find((edge) => edge.bindings.some((b) => b.local === newName));
      if (imported) collisions.push({ path, line: imported.line, existing: `import ${newName}` });
    }
    return collisions;
  }

  async move(request: MoveRequest, workspace: RefactorWorkspace): Promise<MovePlan> {
    const all = workspace.files().map((f) => f.path);
    const goFiles = all.filter((p) => GO.test(p));
    // Every directory that moves maps to one destination directory, and takes all its Go files along.
    const dirMoves = new Map<string, string>();
    for (const file of request.files) {
      const from = dirOf(file.from);
      const to = dirOf(file.to);
      if (from === to) continue;
      const known = dirMoves.get(from);
      if (known !== undefined && known !== to)
        throw new AgentgovError('E_INVALID_ARGUMENT', `the Go files of ${from || '.'} would go to two directories`, {
          from: request.from,
        });
      dirMoves.set(from, to);
    }
    for (const [from] of dirMoves) {
      const staying = goFiles.filter((p) => dirOf(p) === from && !request.files.some((f) => f.from === p));
      if (staying.length > 0)
        throw new AgentgovError(
          'E_INVALID_ARGUMENT',
          `moving a Go file out of its package (` +
            `${from || '.'}) changes its package; ` +
            `${staying.length} file(s) of the ` +
            (`package stay (${staying.slice(0, 3).join(', ')}). Move the whole package ` +
              `directory, or rename the file within it.`),
          { from: request.from, staying: staying.slice(0, 10) },
        );
    }
    if (dirMoves.size === 0) return { edits: [], unedited: [] };
    const files = new Set(all);
    const modules = new GoModules({ root: workspace.root, files, readText: (p) => workspace.read(p) ?? null });
    const edits: RefactorEdit[] = [];
    const unedited: UneditedReference[] = [];
    const warnings: string[] = [];
    const seen = new Set<string>();
    for (const [fromDir, toDir] of dirMoves) {
      const oldPath = modules.importPathOf(fromDir);
      const newPath = modules.importPathOf(toDir);
      const packageName =
        workspace
          .definitions({ path: goFiles.find((p) => dirOf(p) === fromDir && !p.endsWith('_test.go')) ?? '' })
          .find((d) => d.kind === 'module')?.name ?? defaultPackageName(oldPath ?? fromDir);
      if (posix.basename(toDir) !== packageName && defaultPackageName(newPath ?? toDir) !== packageName)
        warnings.push(
          `${toDir}/ keeps package ${packageName}: importers name it ${packageName} (an import alias is added where ` +
            'they had none); rename the package clause by hand if the directory should give the name.',
        );
      for (const target of goFiles.filter((p) => dirOf(p) === fromDir)) {
        for (const edge of workspace.importers(target)) {
          const key = `${edge.from_path}\0${edge.line}\0${edge.specifier}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const line = workspace.read(edge.from_path)?.split('\n')[edge.line - 1];
          if (oldPath === null || newPath === null || line === undefined) {
            unedited.push({
              path: edge.from_path,
              line: edge.line,
              certainty: 'high',
              reason:
                `no go.mod module path covers ${oldPath === null ? fromDir : toDir}/, so ` +
                `the new import path is unknown`,
            });
            continue;
          }
          const quoted = line.indexOf(`"${edge.specifier}"`);
          if (quoted < 0) continue;
          const specifier = newPath + edge.specifier.slice(oldPath.length);
          const aliased = edge.bindings.length !== 1 || edge.bindings[0]!.local !== defaultPackageName(edge.specifier);
          const needsAlias = !aliased && defaultPackageName(specifier) !== packageName;
          edits.push({
            path: edge.from_path,
            span: {
              startLine: edge.line,
              startCol: quoted,
              endLine: edge.line,
              endCol: quoted + edge.specifier.length + 2,
            },
            oldText: `"${edge.specifier}"`,
            newText: `${needsAlias ? `${packageName} ` : ''}"${specifier}"`,
            certainty: 'high',
          });
        }
      }
    }
    return { edits, unedited, warnings };
  }
}
