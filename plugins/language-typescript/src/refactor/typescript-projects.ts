import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { RefactorWorkspace } from '@agentgov/core/contracts';
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
}

export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/**
 * The language services of one repository: a project per config file, created on first use and
 * reused while the workspace's file versions say nothing changed (the service then re-checks only
 * what changed). Script contents and versions come from the workspace, so a service sees what the
 * index sees.
 */
export class TypeScriptProjects {
  readonly #projects = new Map<string, TypeScriptProject>();
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
    const inferred = this.#inferredProject();
    if (!inferred.fileNames.has(file)) {
      // a file the index learnt about after the inferred project was made
      inferred.fileNames.add(file);
    }
    this.#membership.set(file, INFERRED);
    return inferred;
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
  }

  #configProject(configPath: string): TypeScriptProject | undefined {
    const cached = this.#projects.get(configPath);
    if (cached) return cached;
    const ts = this.ts;
    const parsed = ts.getParsedCommandLineOfConfigFile(configPath, { noEmit: true }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
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
    const files = this.#workspace
      .files()
      .filter((f) => ES_EXTENSION.test(f.path) && !f.path.endsWith('.d.ts'))
      .map((f) => this.absolute(f.path));
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
    const service = ts.createLanguageService(host, this.#registry);
    return { key, service, fileNames: names };
  }
}
