import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import type { RefactorWorkspace } from '@agentgov/core/contracts';
import { toPosix } from '@agentgov/core/glob';
import type * as TS from 'typescript';
import type tsModule from 'typescript';

export type TypeScriptModule = typeof tsModule;

const ES_EXTENSION = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];
/** The project of files no tsconfig/jsconfig includes: plain JS and loose TS, the way an editor infers one. */
export const INFERRED = '<inferred>';

/** One language service over one tsconfig/jsconfig project (or the inferred one), kept warm between calls. */
export interface TypeScriptProject {
  key: string;
  service: TS.LanguageService;
  /** Absolute root file names. */
  fileNames: Set<string>;
  /**
   * Where an import specifier of `containingFile` leads under this project's options (the source,
   * for a declaration output), in either resolution mode; resolved without building the program.
   */
  resolve(specifier: string, containingFile: string): string[];
}

/** A config file as parsed (its files, options and references), before any service is made for it. */
interface ParsedConfig {
  path: string;
  parsed: TS.ParsedCommandLine;
}

/** An import by a bare specifier (a package name, a `paths` alias) that reaches a repository file. */
export interface BareImport {
  specifier: string;
  /** Offset of the specifier's string literal in the importing file. */
  start: number;
  /** Absolute file it resolves to (the source, for a declaration output). */
  target: string;
}

/**
 * The language services of one repository: a project per config file, created on first use and
 * reused while the workspace's file versions say nothing changed (the service then re-checks only
 * what changed). Script contents and versions come from the workspace, so a service sees what the
 * index sees.
 */
export class TypeScriptProjects {
  readonly #projects = new Map<string, TypeScriptProject>();
  /** Absolute importing file → its bare imports reaching repository files, as the last program resolved them. */
  readonly bareImports = new Map<string, BareImport[]>();
  /** Absolute file → project key, for files already placed. */
  readonly #membership = new Map<string, string>();
  readonly #registry: TS.DocumentRegistry;
  #workspace: RefactorWorkspace;

  constructor(
    readonly ts: TypeScriptModule,
    workspace: RefactorWorkspace,
  ) {
    this.#workspace = workspace;
    this.#registry = ts.createDocumentRegistry(true, workspace.root);
  }

  get root(): string {
    return this.#workspace.root;
  }

  /**
   * The latest workspace view (the index changes between calls; the services stay). When the set of
   * script files changed (added, deleted or moved outside a refactor), project file lists are stale:
   * the projects are rebuilt lazily.
   */
  use(workspace: RefactorWorkspace): void {
    this.#workspace = workspace;
    // files may have changed since the last call: each service checks every script version once, then
    // trusts them for the rest of this call (see getProjectVersion)
    this.#generation += 1;
    const scripts = workspace
      .files()
      .filter((f) => ES_EXTENSION.test(f.path))
      .map((f) => f.path)
      .sort()
      .join('\n');
    const fingerprint = createHash('sha1').update(scripts).digest('hex');
    if (this.#fingerprint !== undefined && this.#fingerprint !== fingerprint) this.reset();
    this.#fingerprint = fingerprint;
  }

  #fingerprint: string | undefined;
  /**
   * Bumped by every engine call (and when a project's root files change). The language service asks
   * for its program again and again within one operation — `getEditsForFileRename` does so for each
   * file path it maps, checking every script's version each time (quadratic in the program's files) —
   * so a service's project version is this: within one call, nothing changes under it.
   */
  #generation = 0;

  /**
   * Every service polls this token during long operations (reference searches check it per file);
   * past `deadline` it reports cancellation and the service throws `OperationCanceledException`.
   */
  deadline = Number.POSITIVE_INFINITY;
  readonly #cancellation: TS.HostCancellationToken = { isCancellationRequested: () => Date.now() > this.deadline };

  absolute(path: string): string {
    return join(this.#workspace.root, path);
  }

  /** Repo-relative posix path of an absolute file name, or null outside the repository (libraries, node_modules). */
  relative(fileName: string): string | null {
    const rel = toPosix(relative(this.#workspace.root, fileName));
    if (rel.startsWith('..') || rel.startsWith('/') || rel.split('/').includes('node_modules')) return null;
    return rel;
  }

  /** The project a repository file belongs to: the nearest config that includes it, else the inferred project. */
  projectOf(path: string): TypeScriptProject {
    const file = this.absolute(path);
    const known = this.#membership.get(file);
    if (known) {
      const project = this.#projects.get(known);
      if (project && project.fileNames.has(file)) return project;
    }
    let dir = dirname(file);
    for (;;) {
      for (const name of CONFIG_NAMES) {
        const config = join(dir, name);
        if (!existsSync(config)) continue;
        const project = this.#configProject(config);
        if (project?.fileNames.has(file)) {
          this.#membership.set(file, project.key);
          return project;
        }
      }
      if (dir === this.#workspace.root || dirname(dir) === dir) break;
      dir = dirname(dir);
    }
    // a config elsewhere (a `tsconfig.test.json`, a project another one references) may include it
    this.#discover();
    for (const configPath of this.#configsOf.get(file) ?? []) {
      const project = this.#configProject(configPath);
      if (project?.fileNames.has(file)) {
        this.#membership.set(file, project.key);
        return project;
      }
    }
    const inferred = this.#inferredProject();
    if (!inferred.fileNames.has(file)) {
      // a file the index learnt about after the inferred project was made
      inferred.fileNames.add(file);
      this.#generation += 1;
    }
    this.#membership.set(file, INFERRED);
    return inferred;
  }

  /**
   * Every project of the repository: each tsconfig/jsconfig with files (found beside and above every
   * script, and through project references), then the inferred project of the scripts none includes.
   * Services are made here but programs only when a caller asks for one.
   */
  allProjects(): TypeScriptProject[] {
    const out: TypeScriptProject[] = [];
    for (const config of this.#discover()) {
      if (config.parsed.fileNames.length === 0) continue;
      const project = this.#configProject(config.path);
      if (project) out.push(project);
    }
    out.push(this.#inferredProject());
    return out;
  }

  /**
   * The projects a search has to ask: those with a root file whose text `mentions` what is searched
   * (a project that never spells a name has no location of its own), `always` first.
   */
  projectsMentioning(mentions: (text: string) => boolean, always: readonly TypeScriptProject[]): TypeScriptProject[] {
    const out = new Map(always.map((p) => [p.key, p]));
    for (const project of this.allProjects()) {
      if (out.has(project.key)) continue;
      for (const file of project.fileNames) {
        const rel = this.relative(file);
        const text = rel === null ? undefined : this.#workspace.read(rel);
        if (text !== undefined && mentions(text)) {
          out.set(project.key, project);
          break;
        }
      }
    }
    return [...out.values()];
  }

  /**
   * Whether a root file of the project that `mentions` accepts imports (`import`, `export … from`,
   * `require`, `import()`) one of `targets`: only those files' specifiers are resolved, so a project
   * is judged without building its program.
   */
  importsOneOf(project: TypeScriptProject, mentions: (text: string) => boolean, targets: ReadonlySet<string>): boolean {
    for (const file of project.fileNames) {
      const rel = this.relative(file);
      const text = rel === null ? undefined : this.#workspace.read(rel);
      if (text === undefined || !mentions(text)) continue;
      const { importedFiles } = this.ts.preProcessFile(text, true, true);
      for (const imported of importedFiles) {
        if (project.resolve(imported.fileName, file).some((target) => targets.has(target))) return true;
      }
    }
    return false;
  }

  /** Config files found and parsed once per reset: beside and above every script, and what they reference. */
  #discover(): ParsedConfig[] {
    if (this.#configs) return this.#configs;
    const ts = this.ts;
    const root = this.#workspace.root;
    const queue: string[] = [];
    const dirs = new Set<string>();
    for (const file of this.#workspace.files()) {
      if (!ES_EXTENSION.test(file.path)) continue;
      let dir = dirname(this.absolute(file.path));
      while (!dirs.has(dir)) {
        dirs.add(dir);
        for (const name of CONFIG_NAMES) if (existsSync(join(dir, name))) queue.push(join(dir, name));
        if (dir === root || dirname(dir) === dir) break;
        dir = dirname(dir);
      }
    }
    const seen = new Set<string>();
    const configs: ParsedConfig[] = [];
    while (queue.length > 0) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const parsed = this.#parse(path);
      if (!parsed) continue;
      configs.push({ path, parsed });
      for (const reference of parsed.projectReferences ?? []) {
        const target = ts.resolveProjectReferencePath(reference);
        if (this.relative(target) !== null && existsSync(target)) queue.push(target);
      }
    }
    configs.sort((a, b) => a.path.localeCompare(b.path));
    this.#configsOf.clear();
    for (const config of configs) {
      for (const file of config.parsed.fileNames)
        this.#configsOf.set(file, [...(this.#configsOf.get(file) ?? []), config.path]);
    }
    this.#configs = configs;
    this.#outputs = this.#declarationOutputs(configs);
    return configs;
  }

  #configs: ParsedConfig[] | undefined;
  /** Absolute file → the configs that include it. */
  readonly #configsOf = new Map<string, string[]>();
  readonly #parsedConfigs = new Map<string, TS.ParsedCommandLine | null>();

  #parse(configPath: string): TS.ParsedCommandLine | undefined {
    if (!this.#parsedConfigs.has(configPath)) {
      const ts = this.ts;
      const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined };
      const parsed = ts.getParsedCommandLineOfConfigFile(configPath, { noEmit: true }, host);
      this.#parsedConfigs.set(configPath, parsed ?? null);
    }
    return this.#parsedConfigs.get(configPath) ?? undefined;
  }

  /**
   * Declaration output → source, for every file of every config (as if each emitted declarations):
   * how `@scope/pkg` (package.json `types`/`exports` → `dist/….d.ts`) leads back to the package's
   * sources, built or not, so that importers in other packages are part of one rename.
   */
  #declarationOutputs(configs: ParsedConfig[]): Map<string, string> {
    const ts = this.ts;
    const outputs = new Map<string, string>();
    const ignoreCase = !ts.sys.useCaseSensitiveFileNames;
    for (const { parsed } of configs) {
      const options = { ...parsed.options, declaration: true, noEmit: false, emitDeclarationOnly: false };
      const withDeclarations: TS.ParsedCommandLine = { ...parsed, options };
      for (const fileName of parsed.fileNames) {
        if (!/\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/.test(fileName) || fileName.endsWith('.d.ts')) continue;
        let names: readonly string[];
        try {
          names = ts.getOutputFileNames(withDeclarations, fileName, ignoreCase);
        } catch {
          continue;
        }
        for (const output of names) {
          if (/\.d\.[cm]?ts$/.test(output) && !outputs.has(output)) outputs.set(output, fileName);
        }
      }
    }
    return outputs;
  }

  #outputs = new Map<string, string>();

  /** A path with its deepest existing directory resolved through symlinks (node_modules/@x/pkg → packages/pkg). */
  #canonical(path: string): string {
    const parent = dirname(path);
    if (parent === path) return path;
    // directories are asked again and again by the resolver's probes: each resolved once per reset
    let real = this.#canonicalDirs.get(parent);
    if (real === undefined) {
      real = existsSync(parent) ? realDirectory(parent) : this.#canonical(parent);
      this.#canonicalDirs.set(parent, real);
    }
    return existsSync(path) ? realDirectory(path) : join(real, basename(path));
  }

  readonly #canonicalDirs = new Map<string, string>();

  /** The source a declaration output was made from, when a project of the repository emits it. */
  sourceOfOutput(fileName: string): string | undefined {
    // only declaration files are outputs: the resolver's other probes (.ts, .js, package.json) need no lookup
    if (!DECLARATION.test(fileName)) return undefined;
    this.#discover();
    return this.#outputs.get(fileName) ?? this.#outputs.get(this.#canonical(fileName));
  }

  /** Every project made so far. */
  projects(): TypeScriptProject[] {
    return [...this.#projects.values()];
  }

  /** Forget every project (file membership changed, e.g. after a move); the next call rebuilds lazily. */
  reset(): void {
    for (const project of this.#projects.values()) project.service.dispose();
    this.#projects.clear();
    this.#membership.clear();
    this.#configs = undefined;
    this.#parsedConfigs.clear();
    this.#outputs = new Map();
    this.#canonicalDirs.clear();
    this.bareImports.clear();
  }

  #configProject(configPath: string): TypeScriptProject | undefined {
    const cached = this.#projects.get(configPath);
    if (cached) return cached;
    this.#discover();
    const parsed = this.#parse(configPath);
    if (!parsed) return undefined;
    const options = { ...parsed.options, allowJs: parsed.options.allowJs ?? configPath.endsWith('jsconfig.json') };
    const project = this.#create(configPath, parsed.fileNames, options, dirname(configPath));
    this.#projects.set(configPath, project);
    return project;
  }

  #inferredProject(): TypeScriptProject {
    const cached = this.#projects.get(INFERRED);
    if (cached) return cached;
    const ts = this.ts;
    // the scripts no config includes (plain JS, loose TS): each other file is in a config's project
    this.#discover();
    const included = this.#configsOf;
    const files = this.#workspace
      .files()
      .filter((f) => ES_EXTENSION.test(f.path) && !f.path.endsWith('.d.ts'))
      .map((f) => this.absolute(f.path))
      .filter((file) => !included.has(file));
    const options: TS.CompilerOptions = {
      allowJs: true,
      checkJs: false,
      noEmit: true,
      target: ts.ScriptTarget.ESNext,
      module: ts.ModuleKind.Preserve,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      jsx: ts.JsxEmit.Preserve,
      allowImportingTsExtensions: true,
      resolveJsonModule: true,
      skipLibCheck: true,
    };
    const project = this.#create(INFERRED, files, options, this.#workspace.root);
    this.#projects.set(INFERRED, project);
    return project;
  }

  #create(key: string, fileNames: string[], options: TS.CompilerOptions, currentDirectory: string): TypeScriptProject {
    const ts = this.ts;
    const names = new Set(fileNames);
    const host: TS.LanguageServiceHost = {
      getCompilationSettings: () => options,
      getProjectVersion: () => String(this.#generation),
      getScriptFileNames: () => [...names],
      getScriptVersion: (fileName) => {
        const rel = this.relative(fileName);
        return rel === null ? '0' : this.#workspace.version(rel);
      },
      getScriptSnapshot: (fileName) => {
        const rel = this.relative(fileName);
        const text = rel === null ? ts.sys.readFile(fileName) : this.#workspace.read(rel);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => currentDirectory,
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: (fileName) => ts.sys.fileExists(fileName),
      readFile: (fileName, encoding) => ts.sys.readFile(fileName, encoding),
      readDirectory: (...args) => ts.sys.readDirectory(...args),
      directoryExists: (dir) => ts.sys.directoryExists(dir),
      getDirectories: (dir) => ts.sys.getDirectories(dir),
      realpath: ts.sys.realpath,
      useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
      getCancellationToken: () => this.#cancellation,
    };
    // workspace packages resolve to their sources, not their (maybe unbuilt) declaration outputs
    const resolutionHost: TS.ModuleResolutionHost = {
      fileExists: (fileName) => ts.sys.fileExists(fileName) || this.sourceOfOutput(fileName) !== undefined,
      readFile: (fileName) => ts.sys.readFile(fileName),
      directoryExists: (dir) => ts.sys.directoryExists(dir),
      getDirectories: (dir) => ts.sys.getDirectories(dir),
      realpath: (fileName) => this.#canonical(fileName),
      useCaseSensitiveFileNames: ts.sys.useCaseSensitiveFileNames,
    };
    const canonicalName = (fileName: string) => (ts.sys.useCaseSensitiveFileNames ? fileName : fileName.toLowerCase());
    const cache = ts.createModuleResolutionCache(currentDirectory, canonicalName, options);
    const resolve = (specifier: string, containingFile: string): string[] => {
      const targets = new Set<string>();
      for (const mode of [ts.ModuleKind.ESNext, ts.ModuleKind.CommonJS] as const) {
        const resolved = ts.resolveModuleName(
          specifier,
          containingFile,
          options,
          resolutionHost,
          cache,
          undefined,
          mode,
        );
        const fileName = resolved.resolvedModule?.resolvedFileName;
        if (fileName) targets.add(this.sourceOfOutput(fileName) ?? fileName);
      }
      return [...targets];
    };
    host.resolveModuleNameLiterals = (literals, containingFile, redirected, compilerOptions, containingSourceFile) => {
      const bare: BareImport[] = [];
      const resolvedAll = literals.map((literal) => {
        const mode = ts.getModeForUsageLocation(containingSourceFile, literal, compilerOptions);
        const resolved = ts.resolveModuleName(
          literal.text,
          containingFile,
          compilerOptions,
          resolutionHost,
          cache,
          redirected,
          mode,
        );
        const source = resolved.resolvedModule && this.sourceOfOutput(resolved.resolvedModule.resolvedFileName);
        const target = source ?? resolved.resolvedModule?.resolvedFileName;
        if (target && !/^[./]/.test(literal.text) && this.relative(target) !== null) {
          bare.push({ specifier: literal.text, start: literal.getStart(containingSourceFile), target });
        }
        if (!source || !resolved.resolvedModule) return resolved;
        const extension = extensionOf(ts, source);
        const resolvedModule = {
          ...resolved.resolvedModule,
          resolvedFileName: source,
          extension,
          isExternalLibraryImport: false,
        };
        return { ...resolved, resolvedModule: { ...resolvedModule, resolvedUsingTsExtension: false } };
      });
      this.bareImports.set(containingFile, bare);
      return resolvedAll;
    };
    const service = ts.createLanguageService(host, this.#registry);
    return { key, service, fileNames: names, resolve };
  }
}

const DECLARATION = /\.d\.[cm]?ts$/;

function realDirectory(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The resolution extension of a source file name. */
function extensionOf(ts: TypeScriptModule, fileName: string): TS.Extension {
  const suffix = /\.([cm]?[jt]sx?)$/.exec(fileName)?.[1] ?? 'ts';
  const byName: Record<string, TS.Extension> = {
    ts: ts.Extension.Ts,
    tsx: ts.Extension.Tsx,
    mts: ts.Extension.Mts,
    cts: ts.Extension.Cts,
    js: ts.Extension.Js,
    jsx: ts.Extension.Jsx,
    mjs: ts.Extension.Mjs,
    cjs: ts.Extension.Cjs,
  };
  return byName[suffix] ?? ts.Extension.Ts;
}
