import { AgentgovError } from '@agentgov/core';
import type { EngineReference, FileMove, MovePlan, MoveRequest, RefactorEdit, RefactorEngine, RefactorSymbol, RefactorWorkspace, RenameCollision, RenamePlan, RenameRequest } from '@agentgov/core/contracts';
import type * as TS from 'typescript';
import { declarationsIn } from './typescript-declarations.js';
import { commentAndStringRanges, mentionOffsets } from './typescript-mentions.js';
import { TypeScriptProjects, type TypeScriptModule, type TypeScriptProject } from './typescript-projects.js';

const ES_EXTENSION = /\.(?:[cm]?[jt]s|[jt]sx)$/;
/**
 * The language service's own defaults: a rename follows the symbol through `export { a as b }`
 * aliases and shorthand properties (so the exported name and the property are renamed with it),
 * which is the location set of `findRenameLocations` and of the benchmark oracle.
 */
const PREFERENCES: TS.UserPreferences = { providePrefixAndSuffixTextForRename: false, allowRenameOfImportPath: false };

/** A symbol the language service will not rename (declared in a library, a keyword position). */
function refused(message: string): AgentgovError {
  return new AgentgovError('E_REFACTOR_UNSUPPORTED', message, { engine: 'typescript-language-service' });
}

/**
 * Rename and move for TypeScript and JavaScript through the TypeScript language service:
 * `findRenameLocations` and `getEditsForFileRename`, the edits an editor makes. Every edit it
 * returns is `high`; with `includeComments`, the extra mentions the service finds in comments and
 * strings are `low`. `typescript` is loaded on first use, so hosts that never refactor never pay
 * for it.
 */
export class TypeScriptRefactorEngine implements RefactorEngine {
  readonly name = 'typescript-language-service';
  #ts: TypeScriptModule | undefined;
  #projects: TypeScriptProjects | undefined;
  /** Parsed files for declaration lookup, by path, while their version holds. */
  readonly #parsed = new Map<string, { version: string; source: TS.SourceFile }>();

  async #load(workspace: RefactorWorkspace): Promise<TypeScriptProjects> {
    const ts = (this.#ts ??= (await import('typescript')).default);
    if (!this.#projects || this.#projects.root !== workspace.root) {
      this.#projects?.reset();
      this.#projects = new TypeScriptProjects(ts, workspace);
    }
    this.#projects.use(workspace);
    return this.#projects;
  }

  checkIdentifier(name: string): string | null {
    if (!/^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u.test(name)) return `'${name}' is not a valid JavaScript identifier`;
    if (RESERVED.has(name)) return `'${name}' is a reserved word in JavaScript/TypeScript`;
    return null;
  }

  async declarations(name: string, workspace: RefactorWorkspace): Promise<RefactorSymbol[]> {
    const projects = await this.#load(workspace);
    const bare = name.split('.').pop() ?? name;
    const wanted = name.includes('.') ? (_: string, qualified: string) => qualified === name || qualified.endsWith(`.${name}`) : (n: string) => n === name;
    const found: RefactorSymbol[] = [];
    for (const file of workspace.files()) {
      if (!ES_EXTENSION.test(file.path)) continue;
      const text = workspace.read(file.path);
      if (text === undefined || !text.includes(bare)) continue;
      const version = workspace.version(file.path);
      let parsed = this.#parsed.get(file.path);
      if (parsed?.version !== version) {
        parsed = { version, source: projects.ts.createSourceFile(file.path, text, projects.ts.ScriptTarget.Latest, true) };
        this.#parsed.set(file.path, parsed);
      }
      const seen = new Map<string, RefactorSymbol>();
      for (const symbol of declarationsIn(projects.ts, parsed.source, file.path, wanted)) {
        // overloads and merged declarations of one file are one symbol
        const first = seen.get(symbol.qualifiedName);
        if (first) {
          (first.moreLines ??= []).push(symbol.line);
          continue;
        }
        seen.set(symbol.qualifiedName, symbol);
        found.push(symbol);
      }
    }
    return found;
  }

  async rename(request: RenameRequest, workspace: RefactorWorkspace): Promise<RenamePlan> {
    const projects = await this.#load(workspace);
    const { project, fileName, position } = this.#locate(projects, request.symbol);
    const info = project.service.getRenameInfo(fileName, position, PREFERENCES);
    if (!info.canRename) throw refused(info.localizedErrorMessage);
    const code = project.service.findRenameLocations(fileName, position, false, false, PREFERENCES) ?? [];
    const edits = this.#renameEdits(projects, project, code, request.newName, 'high');
    if (request.includeComments) edits.push(...this.#mentions(projects, project, code, request.symbol.name, request.newName));
    return { edits, collisions: this.#collisions(projects, project, fileName, position, code, request.newName) };
  }

  async move(request: MoveRequest, workspace: RefactorWorkspace): Promise<MovePlan> {
    const projects = await this.#load(workspace);
    const touched = new Map<string, TypeScriptProject>();
    for (const file of request.files) {
      const project = projects.projectOf(file.from);
      touched.set(project.key, project);
    }
    const edits: RefactorEdit[] = [];
    const seen = new Set<string>();
    const format = projects.ts.getDefaultFormatCodeSettings();
    for (const project of touched.values()) {
      const changes = project.service.getEditsForFileRename(projects.absolute(request.from), projects.absolute(request.to), format, PREFERENCES);
      for (const change of changes) {
        const path = projects.relative(change.fileName);
        if (path === null) continue;
        const text = workspace.read(path);
        if (text === undefined) continue;
        for (const textChange of change.textChanges) {
          const key = `${path}:${textChange.span.start}:${textChange.span.length}`;
          if (seen.has(key)) continue;
          seen.add(key);
          edits.push(editAt(path, text, textChange.span, textChange.newText, 'high'));
        }
      }
    }
    return { edits };
  }

  async references(symbol: RefactorSymbol, workspace: RefactorWorkspace, options: { timeoutMs?: number } = {}): Promise<EngineReference[]> {
    const projects = await this.#load(workspace);
    // loading the project (parsing every file once) is not interruptible and not counted; the search is
    const { project, fileName, position } = this.#locate(projects, symbol);
    let groups: TS.ReferencedSymbol[];
    projects.deadline = Date.now() + (options.timeoutMs ?? Number.POSITIVE_INFINITY);
    try {
      groups = project.service.findReferences(fileName, position) ?? [];
    } catch (error) {
      if (!(error instanceof projects.ts.OperationCanceledException)) throw error;
      throw new AgentgovError('E_DEADLINE_EXCEEDED', `the TypeScript language service did not finish finding references to ${symbol.qualifiedName} within ${options.timeoutMs} ms`, { engine: this.name, symbol: symbol.qualifiedName });
    } finally {
      projects.deadline = Number.POSITIVE_INFINITY;
    }
    const out: EngineReference[] = [];
    for (const group of groups) {
      for (const ref of group.references) {
        const path = projects.relative(ref.fileName);
        const text = path === null ? undefined : workspace.read(path);
        if (path === null || text === undefined) continue;
        out.push({ path, span: editAt(path, text, ref.textSpan, '', 'high').span, certainty: 'high', isDefinition: ref.isDefinition ?? false });
      }
    }
    return out;
  }

  invalidate(change: { changed: string[]; moved: FileMove[] }): void {
    for (const path of [...change.changed, ...change.moved.map((m) => m.from)]) this.#parsed.delete(path);
    // a move changes which project holds which file, and config files change projects: rebuild lazily
    if (change.moved.length > 0 || change.changed.some((p) => p.endsWith('.json'))) this.#projects?.reset();
  }

  dispose(): void {
    this.#projects?.reset();
    this.#parsed.clear();
  }

  #locate(projects: TypeScriptProjects, symbol: RefactorSymbol): { project: TypeScriptProject; fileName: string; position: number } {
    const project = projects.projectOf(symbol.path);
    const fileName = projects.absolute(symbol.path);
    const source = project.service.getProgram()?.getSourceFile(fileName);
    if (!source) throw refused(`${symbol.path} is not part of its TypeScript project`);
    return { project, fileName, position: source.getPositionOfLineAndCharacter(symbol.line - 1, symbol.col) };
  }

  /** Whole-word mentions of the name in the comments and strings of the project's repository files (`low`). */
  #mentions(projects: TypeScriptProjects, project: TypeScriptProject, code: readonly TS.RenameLocation[], name: string, newName: string): RefactorEdit[] {
    const program = project.service.getProgram();
    if (!program) return [];
    const known = new Set(code.map((l) => `${l.fileName}:${l.textSpan.start}`));
    const edits: RefactorEdit[] = [];
    for (const source of program.getSourceFiles()) {
      const path = projects.relative(source.fileName);
      if (path === null || !source.text.includes(name)) continue;
      let cached = this.#ranges.get(source.fileName);
      if (cached?.source !== source) this.#ranges.set(source.fileName, (cached = { source, ranges: commentAndStringRanges(projects.ts, source) }));
      for (const offset of mentionOffsets(source.text, cached.ranges, name)) {
        if (known.has(`${source.fileName}:${offset}`)) continue;
        edits.push(editAt(path, source.text, { start: offset, length: name.length }, newName, 'low'));
      }
    }
    return edits;
  }

  /** Comment and string ranges per file, while the service keeps the same SourceFile (same version). */
  readonly #ranges = new Map<string, { source: TS.SourceFile; ranges: Array<[number, number]> }>();

  #renameEdits(projects: TypeScriptProjects, project: TypeScriptProject, locations: readonly TS.RenameLocation[], newName: string, certainty: 'high' | 'low'): RefactorEdit[] {
    const program = project.service.getProgram();
    const edits: RefactorEdit[] = [];
    for (const location of locations) {
      const path = projects.relative(location.fileName);
      const text = path === null ? undefined : program?.getSourceFile(location.fileName)?.text;
      if (path === null || text === undefined) continue;
      edits.push(editAt(path, text, location.textSpan, `${location.prefixText ?? ''}${newName}${location.suffixText ?? ''}`, certainty));
    }
    return edits;
  }

  /**
   * Where the new name is already taken: a member of the same class or interface, or a binding
   * visible at one of the renamed identifiers (checked once per enclosing function or file).
   */
  #collisions(projects: TypeScriptProjects, project: TypeScriptProject, fileName: string, position: number, locations: readonly TS.RenameLocation[], newName: string): RenameCollision[] {
    const ts = projects.ts;
    const program = project.service.getProgram();
    if (!program) return [];
    const checker = program.getTypeChecker();
    const declarationFile = program.getSourceFile(fileName);
    const declarationNode = declarationFile && tokenAt(ts, declarationFile, position);
    const symbol = declarationNode && checker.getSymbolAtLocation(declarationNode);
    if (!symbol) return [];
    const collisions: RenameCollision[] = [];
    const memberFlags = ts.SymbolFlags.Property | ts.SymbolFlags.Method | ts.SymbolFlags.GetAccessor | ts.SymbolFlags.SetAccessor | ts.SymbolFlags.EnumMember;
    const parent = (symbol as TS.Symbol & { parent?: TS.Symbol }).parent;
    if (symbol.flags & memberFlags && parent) {
      const owners = [checker.getDeclaredTypeOfSymbol(parent), checker.getTypeOfSymbol(parent)];
      if (owners.some((type) => type.getProperty(newName))) {
        const where = declarationFile.getLineAndCharacterOfPosition(position);
        collisions.push({ path: projects.relative(fileName) ?? fileName, line: where.line + 1, existing: `member ${newName} of ${parent.getName()}` });
      }
      return collisions;
    }
    const meaning =
      (symbol.flags & (ts.SymbolFlags.Value | ts.SymbolFlags.Alias) ? ts.SymbolFlags.Value | ts.SymbolFlags.Alias : 0) |
      (symbol.flags & ts.SymbolFlags.Type ? ts.SymbolFlags.Type : 0) |
      (symbol.flags & ts.SymbolFlags.Namespace ? ts.SymbolFlags.Namespace : 0);
    const checked = new Set<string>();
    for (const location of locations) {
      const source = program.getSourceFile(location.fileName);
      if (!source) continue;
      const node = tokenAt(ts, source, location.textSpan.start);
      if (!node || isMemberName(ts, node)) continue;
      const scope = enclosingScope(ts, node);
      const key = `${location.fileName}:${scope.pos}`;
      if (checked.has(key)) continue;
      checked.add(key);
      const taken = checker.getSymbolsInScope(node, meaning || ts.SymbolFlags.Value).find((s) => s.getName() === newName && s !== symbol);
      if (taken) {
        const where = source.getLineAndCharacterOfPosition(location.textSpan.start);
        collisions.push({ path: projects.relative(location.fileName) ?? location.fileName, line: where.line + 1, existing: describeSymbol(ts, taken) });
      }
    }
    return collisions;
  }
}

function editAt(path: string, text: string, span: TS.TextSpan, newText: string, certainty: 'high' | 'low'): RefactorEdit {
  const start = lineAndColumn(text, span.start);
  const end = lineAndColumn(text, span.start + span.length);
  return { path, span: { startLine: start.line, startCol: start.col, endLine: end.line, endCol: end.col }, oldText: text.slice(span.start, span.start + span.length), newText, certainty };
}

function lineAndColumn(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, col: offset - lineStart };
}

function tokenAt(ts: TypeScriptModule, source: TS.SourceFile, position: number): TS.Node | undefined {
  let found: TS.Node | undefined;
  const visit = (node: TS.Node): void => {
    if (position < node.getStart(source) || position >= node.getEnd()) return;
    found = node;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  return found;
}

function isMemberName(ts: TypeScriptModule, node: TS.Node): boolean {
  const parent = node.parent;
  return (
    (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
    (ts.isQualifiedName(parent) && parent.right === node) ||
    ((ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent)) && parent.propertyName === node) ||
    (ts.isPropertyAssignment(parent) && parent.name === node)
  );
}

function enclosingScope(ts: TypeScriptModule, node: TS.Node): TS.Node {
  let current: TS.Node = node;
  while (current.parent && !ts.isFunctionLike(current) && !ts.isSourceFile(current) && !ts.isModuleBlock(current)) current = current.parent;
  return current;
}

function describeSymbol(ts: TypeScriptModule, symbol: TS.Symbol): string {
  const flags = symbol.flags;
  const kind =
    flags & ts.SymbolFlags.Alias ? 'import' :
    flags & ts.SymbolFlags.Class ? 'class' :
    flags & ts.SymbolFlags.Function ? 'function' :
    flags & ts.SymbolFlags.Interface ? 'interface' :
    flags & ts.SymbolFlags.TypeAlias ? 'type' :
    flags & ts.SymbolFlags.Variable ? 'variable' : 'binding';
  return `${kind} ${symbol.getName()}`;
}

/** ECMAScript reserved words, strict-mode reserved words and TypeScript's declaration keywords. */
const RESERVED = new Set([
  'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export', 'extends',
  'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this',
  'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'await', 'yield', 'let', 'static', 'implements', 'interface',
  'package', 'private', 'protected', 'public',
]);
