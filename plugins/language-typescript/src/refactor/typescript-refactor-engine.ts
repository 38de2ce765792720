import { AgentgovError } from '@agentgov/core';
import type {
  EngineReference,
  FileMove,
  MovePlan,
  MoveRequest,
  RefactorEdit,
  RefactorEngine,
  RefactorSymbol,
  RefactorWorkspace,
  RenameCollision,
  RenamePlan,
  RenameRequest,
  UneditedReference,
} from '@agentgov/core/contracts';
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
    if (!/^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u.test(name))
      return `'${name}' is not a valid JavaScript identifier`;
    if (RESERVED.has(name)) return `'${name}' is a reserved word in JavaScript/TypeScript`;
    return null;
  }

  async declarations(name: string, workspace: RefactorWorkspace): Promise<RefactorSymbol[]> {
    const projects = await this.#load(workspace);
    const bare = name.split('.').pop() ?? name;
    const wanted = name.includes('.')
      ? (_: string, qualified: string) => qualified === name || qualified.endsWith(`.${name}`)
      : (n: string) => n === name;
    const found: RefactorSymbol[] = [];
    for (const file of workspace.files()) {
      if (!ES_EXTENSION.test(file.path)) continue;
      const text = workspace.read(file.path);
      if (text === undefined || !text.includes(bare)) continue;
      const version = workspace.version(file.path);
      let parsed = this.#parsed.get(file.path);
      if (parsed?.version !== version) {
        parsed = {
          version,
          source: projects.ts.createSourceFile(file.path, text, projects.ts.ScriptTarget.Latest, true),
        };
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

  /**
   * One rename over every project of the repository: each tsconfig/jsconfig project (and the
   * inferred one) whose program holds the declaration's file and whose own files spell the name is
   * asked, and the locations merged (a file's own project wins where two disagree). Workspace
   * packages imported by name resolve to their sources, so importers in other packages are found.
   * References the index resolved in scripts no program holds become edits at the index's certainty.
   */
  async rename(request: RenameRequest, workspace: RefactorWorkspace): Promise<RenamePlan> {
    const projects = await this.#load(workspace);
    const home = this.#locate(projects, request.symbol);
    const info = home.project.service.getRenameInfo(home.fileName, home.position, PREFERENCES);
    if (!info.canRename) throw refused(info.localizedErrorMessage);
    const spells = (text: string) => text.includes(request.symbol.name);
    const searched = this.#holding(projects, [home.project], spells, [home.fileName]).map((project) => ({
      project,
      locations: project.service.findRenameLocations(home.fileName, home.position, false, false, PREFERENCES) ?? [],
    }));
    const edits = new MergedEdits(projects);
    for (const { project, locations } of searched) {
      edits.add(project, this.#renameEdits(projects, project, locations, request.newName, 'high'));
    }
    if (request.includeComments) {
      const code = searched.flatMap((s) => s.locations);
      for (const { project } of searched) {
        edits.add(project, this.#mentions(projects, project, code, request.symbol.name, request.newName));
      }
    }
    const collisions = new Map<string, RenameCollision>();
    for (const { project, locations } of searched) {
      const found = this.#collisions(projects, project, home.fileName, home.position, locations, request.newName);
      for (const collision of found) {
        collisions.set(`${collision.path}:${collision.line}:${collision.existing}`, collision);
      }
    }
    const searchedProjects = searched.map((s) => s.project);
    const outside = indexEditsOutsidePrograms(projects, workspace, request.symbol, request.newName, searchedProjects);
    return { edits: [...edits.list(), ...outside], collisions: [...collisions.values()] };
  }

  /**
   * A move over every project whose program holds a moved file: each rewrites its importers (the
   * importer's own project wins where two disagree). An import by package name that reaches a moved
   * file through package.json is not respelled as a relative path: it is listed as unedited.
   */
  async move(request: MoveRequest, workspace: RefactorWorkspace): Promise<MovePlan> {
    const projects = await this.#load(workspace);
    const owners = request.files.map((file) => projects.projectOf(file.from));
    const moved = request.files.map((file) => projects.absolute(file.from));
    const edits = new MergedEdits(projects);
    const unedited: UneditedReference[] = [];
    const format = projects.ts.getDefaultFormatCodeSettings();
    // each project asked builds a whole program: ask the moved files' own projects and those whose
    // root files import a moved file (their specifiers resolved without a program), no others
    const mentions = importsOneOf(workspace, request);
    const targets = new Set(moved);
    const asked = projects
      .projectsMentioning(mentions, owners)
      .filter((project) => owners.includes(project) || projects.importsOneOf(project, mentions, targets));
    for (const project of asked) {
      const options = project.service.getProgram()?.getCompilerOptions() ?? {};
      const changes = project.service.getEditsForFileRename(
        projects.absolute(request.from),
        projects.absolute(request.to),
        format,
        PREFERENCES,
      );
      const found: RefactorEdit[] = [];
      for (const change of changes) {
        const path = projects.relative(change.fileName);
        const text = path === null ? undefined : workspace.read(path);
        if (path === null || text === undefined) continue;
        for (const textChange of change.textChanges) {
          const edit = editAt(path, text, textChange.span, textChange.newText, 'high');
          if (isPackageSpecifier(edit.oldText, options) && /^\.\.?\//.test(edit.newText)) {
            unedited.push({
              path,
              line: edit.span.startLine,
              column: edit.span.startCol,
              text: lineOf(text, edit.span.startLine),
              certainty: 'high',
              reason: packageImportReason(edit.oldText),
            });
            continue;
          }
          found.push(edit);
        }
      }
      edits.add(project, found);
    }
    const list = edits.list();
    unedited.push(...bareImportsLeft(projects, workspace, new Set(moved), list));
    return { edits: list, unedited: distinctUnedited(unedited) };
  }

  async references(
    symbol: RefactorSymbol,
    workspace: RefactorWorkspace,
    options: { timeoutMs?: number } = {},
  ): Promise<EngineReference[]> {
    const projects = await this.#load(workspace);
    // loading the projects (parsing every file once) is not interruptible and not counted; the search is
    const home = this.#locate(projects, symbol);
    const holding = this.#holding(projects, [home.project], (text) => text.includes(symbol.name), [home.fileName]);
    const groups: TS.ReferencedSymbol[] = [];
    projects.deadline = Date.now() + (options.timeoutMs ?? Number.POSITIVE_INFINITY);
    try {
      for (const project of holding) {
        groups.push(...(project.service.findReferences(home.fileName, home.position) ?? []));
      }
    } catch (error) {
      if (!(error instanceof projects.ts.OperationCanceledException)) throw error;
      throw new AgentgovError(
        'E_DEADLINE_EXCEEDED',
        `the TypeScript language service did not finish finding references to ` +
          `${symbol.qualifiedName} within ${options.timeoutMs} ms`,
        { engine: this.name, symbol: symbol.qualifiedName },
      );
    } finally {
      projects.deadline = Number.POSITIVE_INFINITY;
    }
    const seen = new Set<string>();
    const out: EngineReference[] = [];
    for (const group of groups) {
      for (const ref of group.references) {
        const path = projects.relative(ref.fileName);
        const text = path === null ? undefined : workspace.read(path);
        if (path === null || text === undefined) continue;
        const key = `${path}:${ref.textSpan.start}:${ref.textSpan.length}`;
        if (seen.has(key)) continue;
        seen.add(key);
        // a group may be a related symbol spelled otherwise (`import plugin from` a module whose
        // default export calls the function)
        if (text.slice(ref.textSpan.start, ref.textSpan.start + ref.textSpan.length) !== symbol.name) continue;
        out.push({
          path,
          span: editAt(path, text, ref.textSpan, '', 'high').span,
          certainty: 'high',
          isDefinition: ref.isDefinition ?? false,
        });
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

  /**
   * The projects to ask: `first`, then every other project with a root file the `mentions` test
   * accepts, kept when its program holds one of `files` (building each program once; later calls reuse it).
   */
  #holding(
    projects: TypeScriptProjects,
    first: readonly TypeScriptProject[],
    mentions: (text: string) => boolean,
    files: readonly string[],
  ): TypeScriptProject[] {
    return projects.projectsMentioning(mentions, first).filter((project) => {
      const program = project.service.getProgram();
      return program !== undefined && files.some((file) => program.getSourceFile(file) !== undefined);
    });
  }

  #locate(
    projects: TypeScriptProjects,
    symbol: RefactorSymbol,
  ): { project: TypeScriptProject; fileName: string; position: number } {
    const project = projects.projectOf(symbol.path);
    const fileName = projects.absolute(symbol.path);
    const source = project.service.getProgram()?.getSourceFile(fileName);
    if (!source) throw refused(`${symbol.path} is not part of its TypeScript project`);
    return { project, fileName, position: source.getPositionOfLineAndCharacter(symbol.line - 1, symbol.col) };
  }

  /** Whole-word mentions of the name in the comments and strings of the project's repository files (`low`). */
  #mentions(
    projects: TypeScriptProjects,
    project: TypeScriptProject,
    code: readonly TS.RenameLocation[],
    name: string,
    newName: string,
  ): RefactorEdit[] {
    const program = project.service.getProgram();
    if (!program) return [];
    const known = new Set(code.map((l) => `${l.fileName}:${l.textSpan.start}`));
    const edits: RefactorEdit[] = [];
    for (const source of program.getSourceFiles()) {
      const path = projects.relative(source.fileName);
      if (path === null || !source.text.includes(name)) continue;
      let cached = this.#ranges.get(source.fileName);
      if (cached?.source !== source)
        this.#ranges.set(source.fileName, (cached = { source, ranges: commentAndStringRanges(projects.ts, source) }));
      for (const offset of mentionOffsets(source.text, cached.ranges, name)) {
        if (known.has(`${source.fileName}:${offset}`)) continue;
        edits.push(editAt(path, source.text, { start: offset, length: name.length }, newName, 'low'));
      }
    }
    return edits;
  }

  /** Comment and string ranges per file, while the service keeps the same SourceFile (same version). */
  readonly #ranges = new Map<string, { source: TS.SourceFile; ranges: Array<[number, number]> }>();

  #renameEdits(
    projects: TypeScriptProjects,
    project: TypeScriptProject,
    locations: readonly TS.RenameLocation[],
    newName: string,
    certainty: 'high' | 'low',
  ): RefactorEdit[] {
    const program = project.service.getProgram();
    const edits: RefactorEdit[] = [];
    for (const location of locations) {
      const path = projects.relative(location.fileName);
      const text = path === null ? undefined : program?.getSourceFile(location.fileName)?.text;
      if (path === null || text === undefined) continue;
      edits.push(
        editAt(
          path,
          text,
          location.textSpan,
          `${location.prefixText ?? ''}${newName}${location.suffixText ?? ''}`,
          certainty,
        ),
      );
    }
    return edits;
  }

  /**
   * Where the new name is already taken: a member of the same class or interface, or a binding
   * visible at one of the renamed identifiers (checked once per enclosing function or file).
   */
  #collisions(
    projects: TypeScriptProjects,
    project: TypeScriptProject,
    fileName: string,
    position: number,
    locations: readonly TS.RenameLocation[],
    newName: string,
  ): RenameCollision[] {
    const ts = projects.ts;
    const program = project.service.getProgram();
    if (!program) return [];
    const checker = program.getTypeChecker();
    const declarationFile = program.getSourceFile(fileName);
    const declarationNode = declarationFile && tokenAt(ts, declarationFile, position);
    const symbol = declarationNode && checker.getSymbolAtLocation(declarationNode);
    if (!symbol) return [];
    const collisions: RenameCollision[] = [];
    const memberFlags =
      ts.SymbolFlags.Property |
      ts.SymbolFlags.Method |
      ts.SymbolFlags.GetAccessor |
      ts.SymbolFlags.SetAccessor |
      ts.SymbolFlags.EnumMember;
    const parent = (symbol as TS.Symbol & { parent?: TS.Symbol }).parent;
    if (symbol.flags & memberFlags && parent) {
      const owners = [checker.getDeclaredTypeOfSymbol(parent), checker.getTypeOfSymbol(parent)];
      if (owners.some((type) => type.getProperty(newName))) {
        const where = declarationFile.getLineAndCharacterOfPosition(position);
        collisions.push({
          path: projects.relative(fileName) ?? fileName,
          line: where.line + 1,
          existing: `member ${newName} of ${parent.getName()}`,
        });
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
      const taken = checker
        .getSymbolsInScope(node, meaning || ts.SymbolFlags.Value)
        .find((s) => s.getName() === newName && s !== symbol);
      if (taken) {
        const where = source.getLineAndCharacterOfPosition(location.textSpan.start);
        collisions.push({
          path: projects.relative(location.fileName) ?? location.fileName,
          line: where.line + 1,
          existing: describeSymbol(ts, taken),
        });
      }
    }
    return collisions;
  }
}

function editAt(
  path: string,
  text: string,
  span: TS.TextSpan,
  newText: string,
  certainty: 'high' | 'low',
): RefactorEdit {
  const start = lineAndColumn(text, span.start);
  const end = lineAndColumn(text, span.start + span.length);
  return {
    path,
    span: { startLine: start.line, startCol: start.col, endLine: end.line, endCol: end.col },
    oldText: text.slice(span.start, span.start + span.length),
    newText,
    certainty,
  };
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
  while (current.parent && !ts.isFunctionLike(current) && !ts.isSourceFile(current) && !ts.isModuleBlock(current))
    current = current.parent;
  return current;
}

function describeSymbol(ts: TypeScriptModule, symbol: TS.Symbol): string {
  const flags = symbol.flags;
  const kind =
    flags & ts.SymbolFlags.Alias
      ? 'import'
      : flags & ts.SymbolFlags.Class
        ? 'class'
        : flags & ts.SymbolFlags.Function
          ? 'function'
          : flags & ts.SymbolFlags.Interface
            ? 'interface'
            : flags & ts.SymbolFlags.TypeAlias
              ? 'type'
              : flags & ts.SymbolFlags.Variable
                ? 'variable'
                : 'binding';
  return `${kind} ${symbol.getName()}`;
}

/** ECMAScript reserved words, strict-mode reserved words and TypeScript's declaration keywords. */
const RESERVED = new Set([
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'new',
  'null',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'await',
  'yield',
  'let',
  'static',
  'implements',
  'interface',
  'package',
  'private',
  'protected',
  'public',
]);

/**
 * Edits from several projects, one per exact range: where two projects answer for the same range,
 * the edit of the file's own project is kept.
 */
class MergedEdits {
  readonly #byRange = new Map<string, { edit: RefactorEdit; own: boolean }>();
  constructor(private readonly projects: TypeScriptProjects) {}

  add(project: TypeScriptProject, edits: readonly RefactorEdit[]): void {
    for (const edit of edits) {
      const { span } = edit;
      const key = `${edit.path}:${span.startLine}:${span.startCol}:${span.endLine}:${span.endCol}`;
      const own = this.projects.projectOf(edit.path).key === project.key;
      const held = this.#byRange.get(key);
      if (!held || (own && !held.own)) this.#byRange.set(key, { edit, own });
    }
  }

  list(): RefactorEdit[] {
    return [...this.#byRange.values()].map((v) => v.edit);
  }
}

/**
 * The index's references to the symbol in scripts outside every project (no config includes them,
 * the inferred project does not hold them, no searched program reaches them): resolved ones `high`,
 * unresolved code uses of the name `medium`.
 */
function indexEditsOutsidePrograms(
  projects: TypeScriptProjects,
  workspace: RefactorWorkspace,
  symbol: RefactorSymbol,
  newName: string,
  searched: readonly TypeScriptProject[],
): RefactorEdit[] {
  const held = new Set<string>();
  // a root file of any project is the language service's to judge: where it did not rename, the comparison lists it
  for (const project of projects.allProjects()) {
    for (const file of project.fileNames) {
      const path = projects.relative(file);
      if (path !== null) held.add(path);
    }
  }
  for (const project of searched) {
    for (const source of project.service.getProgram()?.getSourceFiles() ?? []) {
      const path = projects.relative(source.fileName);
      if (path !== null) held.add(path);
    }
  }
  const definitions = workspace.definitions({ path: symbol.path, name: symbol.name });
  const definition = definitions.find((d) => d.name_line === symbol.line) ?? null;
  const resolved = definition ? workspace.references({ toDefUid: definition.def_uid }) : [];
  const unresolved = workspace.references({ name: symbol.name }).filter((ref) => ref.to_def_uid === null);
  const candidates = [
    ...resolved.map((ref) => ({ ref, certainty: 'high' as const })),
    ...unresolved.map((ref) => ({ ref, certainty: 'medium' as const })),
  ];
  const edits: RefactorEdit[] = [];
  for (const { ref, certainty } of candidates) {
    if (held.has(ref.path) || !ES_EXTENSION.test(ref.path)) continue;
    if (ref.context === 'comment' || ref.context === 'string') continue;
    const text = workspace.read(ref.path);
    if (text === undefined || ref.start_line !== ref.end_line) continue;
    const line = text.split('\n')[ref.start_line - 1] ?? '';
    // the name token of the reference (a qualified use spans `a.name`)
    const col = line.slice(ref.start_col, ref.end_col).endsWith(symbol.name) ? ref.end_col - symbol.name.length : -1;
    if (col < 0) continue;
    const span = {
      startLine: ref.start_line,
      startCol: col,
      endLine: ref.start_line,
      endCol: col + symbol.name.length,
    };
    edits.push({ path: ref.path, span, oldText: symbol.name, newText: newName, certainty });
  }
  return edits;
}

/** A bare specifier that no tsconfig `paths` alias of the project maps: an import by package name. */
function isPackageSpecifier(specifier: string, options: TS.CompilerOptions): boolean {
  if (/^(?:\.{1,2}\/|\/|[a-z]+:)/i.test(specifier) || specifier === '.' || specifier === '..') return false;
  const aliases = Object.keys(options.paths ?? {});
  const matches = (alias: string) =>
    alias.endsWith('*') ? specifier.startsWith(alias.slice(0, -1)) : specifier === alias;
  return !aliases.some(matches);
}

function packageImportReason(specifier: string): string {
  return (
    `imports the moved file by its package name '${specifier}' (package.json exports/types/main, or a paths alias): ` +
    "update the package's entry, not the import"
  );
}

/**
 * Whether a file's text may import a moved file: a string literal ending in the moved file's stem
 * (with or without extension; `dir` for `dir/index`) or passing through a moved directory, or a
 * package specifier whose package.json entry (`exports`, `main`, `types`, `module`) leads to a file
 * of the moved file's stem. A package whose manifest does not lead there cannot reach the file by
 * name: importers of its other entries are not asked (each asked project builds a whole program).
 */
function importsOneOf(workspace: RefactorWorkspace, request: MoveRequest): (text: string) => boolean {
  const names = new Set([stem(request.from)]);
  for (const file of request.files) {
    names.add(stem(file.from));
    if (stem(file.from) === 'index') names.add(stem(file.from.split('/').slice(0, -1).join('/')));
  }
  const escaped = [...names].filter(Boolean).map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const specifier = new RegExp(
    `['"\`](?:[^'"\`\\n]*/)?(?:${escaped.join('|')})(?:\\.[cm]?[jt]sx?)?(?:/[^'"\`\\n]*)?['"\`]`,
  );
  const entries = request.files.flatMap((f) => packageEntriesOf(workspace, f.from));
  const quoted = (text: string, entry: PackageEntry) =>
    ["'", '"', '`'].some((q) => text.includes(`${q}${entry.specifier}${entry.prefix ? '' : q}`));
  return (text) => specifier.test(text) || entries.some((entry) => quoted(text, entry));
}

function stem(path: string): string {
  return (path.split('/').pop() ?? path).replace(/\.[^.]*$/, '');
}

/** A specifier by package name that may resolve to a file: exact, or a prefix (a `./*` pattern export). */
interface PackageEntry {
  specifier: string;
  prefix: boolean;
}

/**
 * The specifiers by package name that may reach a file, from the nearest package.json above it: the
 * package's own name when `main`/`types`/`typings`/`module` or the `.` export leads to a file of the
 * same stem, `name/sub` for each subpath export that does, `name/prefix` for a pattern export (`./*`),
 * and `name/` itself when the manifest has no `exports` (every deep import is allowed then).
 */
function packageEntriesOf(workspace: RefactorWorkspace, path: string): PackageEntry[] {
  const parts = path.split('/').slice(0, -1);
  for (let n = parts.length; n >= 0; n -= 1) {
    let manifest: string | undefined;
    try {
      manifest = workspace.read([...parts.slice(0, n), 'package.json'].join('/'));
    } catch {
      manifest = undefined; // the contract says undefined; a workspace that throws for a missing file is read the same
    }
    if (manifest === undefined) continue;
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(manifest) as Record<string, unknown>;
    } catch {
      return [];
    }
    const name = parsed.name;
    if (typeof name !== 'string' || name === '') return [];
    const wanted = stem(path);
    const leads = (value: unknown): boolean =>
      typeof value === 'string'
        ? value.includes('*') || stem(value).replace(/\.d$/, '') === wanted
        : Array.isArray(value)
          ? value.some(leads)
          : typeof value === 'object' && value !== null && Object.values(value).some(leads);
    const entries: PackageEntry[] = [];
    if (['main', 'types', 'typings', 'module'].some((field) => leads(parsed[field])))
      entries.push({ specifier: name, prefix: false });
    const exports = parsed.exports;
    if (exports === undefined) {
      entries.push({ specifier: `${name}/`, prefix: true });
    } else if (typeof exports !== 'object' || exports === null || Array.isArray(exports)) {
      if (leads(exports)) entries.push({ specifier: name, prefix: false });
    } else {
      const keyed = Object.keys(exports).some((key) => key.startsWith('.'));
      const subpaths: Array<[string, unknown]> = keyed ? Object.entries(exports) : [['.', exports]];
      for (const [key, value] of subpaths) {
        if (!leads(value)) continue;
        const specifier = key === '.' ? name : `${name}${key.slice(1)}`;
        const star = specifier.indexOf('*');
        entries.push(star < 0 ? { specifier, prefix: false } : { specifier: specifier.slice(0, star), prefix: true });
      }
    }
    return entries;
  }
  return [];
}

/**
 * Imports by package name (or an alias) of a moved file that no edit rewrites: the language
 * service keeps such a specifier, which then reaches the file only if package.json follows.
 */
function bareImportsLeft(
  projects: TypeScriptProjects,
  workspace: RefactorWorkspace,
  moved: ReadonlySet<string>,
  edits: readonly RefactorEdit[],
): UneditedReference[] {
  const editedLines = new Set(edits.map((e) => `${e.path}:${e.span.startLine}`));
  const out: UneditedReference[] = [];
  for (const [file, imports] of projects.bareImports) {
    const path = projects.relative(file);
    if (path === null || moved.has(file)) continue;
    for (const item of imports) {
      if (!moved.has(item.target)) continue;
      const text = workspace.read(path);
      if (text === undefined) continue;
      const line = text.slice(0, item.start).split('\n').length;
      if (editedLines.has(`${path}:${line}`)) continue;
      out.push({
        path,
        line,
        text: lineOf(text, line),
        certainty: 'high',
        reason: packageImportReason(item.specifier),
      });
    }
  }
  return out;
}

function lineOf(text: string, line: number): string {
  return (text.split('\n')[line - 1] ?? '').trim().slice(0, 200);
}

function distinctUnedited(list: UneditedReference[]): UneditedReference[] {
  const seen = new Map<string, UneditedReference>();
  // one per import line: the service's dropped respelling and the resolver's record name the same import
  for (const item of list) if (!seen.has(`${item.path}:${item.line}`)) seen.set(`${item.path}:${item.line}`, item);
  return [...seen.values()];
}
