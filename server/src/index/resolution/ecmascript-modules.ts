import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** TS ESM code imports `./x.js` meaning `./x.ts`. */
const EMITTED_TO_SOURCE: Record<string, string[]> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};
/** Export conditions in preference order: source-like first, since built outputs are rarely in the repo. */
const CONDITIONS = ['source', 'development', 'import', 'module', 'browser', 'node', 'default', 'require', 'types'];

interface TsPaths {
  /** Repo-relative directory `paths` are relative to. */
  base: string;
  baseUrl: string | null;
  paths: Array<{ pattern: string; targets: string[] }>;
}

interface WorkspacePackage {
  dir: string;
  manifest: { main?: string; module?: string; types?: string; source?: string; exports?: unknown };
}

/** Strips comments and trailing commas so tsconfig's JSONC parses as JSON. */
function parseJsonc(text: string): unknown {
  const withoutComments = text.replace(
    /("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g,
    (_match, string: string | undefined) => string ?? '',
  );
  return JSON.parse(withoutComments.replace(/,(\s*[}\]])/g, '$1'));
}

function dirOf(path: string): string {
  const dir = posix.dirname(path);
  return dir === '.' ? '' : dir;
}

function joinRel(...parts: string[]): string {
  const joined = posix.normalize(posix.join(...parts.filter((part) => part.length > 0)));
  return joined === '.' ? '' : joined.replace(/\/$/, '');
}

/**
 * Resolves ECMAScript import specifiers to repository files: relative paths with extension and
 * index probing, tsconfig `paths`/`baseUrl`, and workspace packages through `exports`/`main`.
 */
export class EcmascriptModuleResolver {
  readonly #files: ReadonlySet<string>;
  readonly #root: string;
  readonly #tsconfigs = new Map<string, TsPaths | null>();
  readonly #tsconfigFiles: ReadonlySet<string>;
  readonly #packages = new Map<string, WorkspacePackage>();

  /** `configFiles`: repo-relative package.json and tsconfig*.json paths found by discovery. */
  constructor(root: string, files: ReadonlySet<string>, configFiles: readonly string[]) {
    this.#root = root;
    this.#files = files;
    this.#tsconfigFiles = new Set(
      configFiles.filter(
        (file) => posix.basename(file) === 'tsconfig.json' || posix.basename(file) === 'jsconfig.json',
      ),
    );
    for (const file of configFiles) {
      if (posix.basename(file) !== 'package.json' || file.split('/').includes('node_modules')) continue;
      const manifest = this.#readJson(file) as (WorkspacePackage['manifest'] & { name?: string }) | null;
      if (manifest?.name && !this.#packages.has(manifest.name))
        this.#packages.set(manifest.name, { dir: dirOf(file), manifest });
    }
  }

  resolve(fromPath: string, specifier: string): string | null {
    if (specifier.startsWith('.') || specifier.startsWith('/')) {
      const target = joinRel(specifier.startsWith('/') ? '' : dirOf(fromPath), specifier);
      return target.startsWith('..') ? null : this.#probe(target);
    }
    return this.#viaTsconfig(fromPath, specifier) ?? this.#viaPackage(specifier);
  }

  #probe(base: string): string | null {
    if (this.#files.has(base)) return base;
    const extension = posix.extname(base);
    for (const replacement of EMITTED_TO_SOURCE[extension] ?? []) {
      const candidate = base.slice(0, -extension.length) + replacement;
      if (this.#files.has(candidate)) return candidate;
    }
    for (const ext of SOURCE_EXTENSIONS) if (this.#files.has(base + ext)) return base + ext;
    for (const ext of SOURCE_EXTENSIONS)
      if (this.#files.has(joinRel(base, `index${ext}`))) return joinRel(base, `index${ext}`);
    return null;
  }

  #viaTsconfig(fromPath: string, specifier: string): string | null {
    const config = this.#tsconfigFor(dirOf(fromPath));
    if (!config) return null;
    let best: { prefixLength: number; targets: string[]; rest: string } | null = null;
    for (const { pattern, targets } of config.paths) {
      const star = pattern.indexOf('*');
      if (star < 0) {
        if (pattern === specifier && (!best || pattern.length > best.prefixLength))
          best = { prefixLength: pattern.length, targets, rest: '' };
        continue;
      }
      const prefix = pattern.slice(0, star);
      const suffix = pattern.slice(star + 1);
      if (
        specifier.startsWith(prefix) &&
        specifier.endsWith(suffix) &&
        specifier.length >= prefix.length + suffix.length &&
        (!best || prefix.length > best.prefixLength)
      ) {
        best = {
          prefixLength: prefix.length,
          targets,
          rest: specifier.slice(prefix.length, specifier.length - suffix.length),
        };
      }
    }
    const base = config.baseUrl ?? config.base;
    for (const target of best?.targets ?? []) {
      const found = this.#probe(joinRel(base, target.replace('*', best!.rest)));
      if (found) return found;
    }
    return config.baseUrl !== null ? this.#probe(joinRel(config.baseUrl, specifier)) : null;
  }

  /** The nearest tsconfig.json (or jsconfig.json) at or above `dir`, with `extends` chains followed. */
  #tsconfigFor(dir: string): TsPaths | null {
    const cached = this.#tsconfigs.get(dir);
    if (cached !== undefined) return cached;
    let result: TsPaths | null = null;
    for (const name of ['tsconfig.json', 'jsconfig.json']) {
      const file = joinRel(dir, name);
      if (this.#tsconfigFiles.has(file)) {
        result = this.#loadTsconfig(file, 0);
        break;
      }
    }
    if (!result && dir !== '') result = this.#tsconfigFor(dirOf(dir));
    this.#tsconfigs.set(dir, result);
    return result;
  }

  #loadTsconfig(file: string, depth: number): TsPaths | null {
    const json = this.#readJson(file) as {
      extends?: string | string[];
      compilerOptions?: { baseUrl?: string; paths?: Record<string, string[]> };
    } | null;
    if (!json) return null;
    const dir = dirOf(file);
    const parentRef = Array.isArray(json.extends) ? json.extends[0] : json.extends;
    const parent =
      parentRef && parentRef.startsWith('.') && depth < 5
        ? this.#loadTsconfig(joinRel(dir, parentRef.endsWith('.json') ? parentRef : `${parentRef}.json`), depth + 1)
        : null;
    const options = json.compilerOptions ?? {};
    const baseUrl = options.baseUrl !== undefined ? joinRel(dir, options.baseUrl) : (parent?.baseUrl ?? null);
    if (options.paths) {
      const paths = Object.entries(options.paths).map(([pattern, targets]) => ({ pattern, targets }));
      return { base: baseUrl ?? dir, baseUrl, paths };
    }
    return parent ? { ...parent, baseUrl } : baseUrl !== null ? { base: baseUrl, baseUrl, paths: [] } : null;
  }

  #viaPackage(specifier: string): string | null {
    const parts = specifier.split('/');
    const nameLength = specifier.startsWith('@') ? 2 : 1;
    const pkg = this.#packages.get(parts.slice(0, nameLength).join('/'));
    if (!pkg) return null;
    const subpath = parts.slice(nameLength).join('/');
    const exported = this.#fromExports(pkg, subpath ? `./${subpath}` : '.');
    if (exported) return exported;
    if (subpath) return this.#probe(joinRel(pkg.dir, subpath)) ?? this.#probe(joinRel(pkg.dir, 'src', subpath));
    const { manifest } = pkg;
    for (const entry of [manifest.source, manifest.module, manifest.main, manifest.types]) {
      const found = entry ? this.#target(pkg.dir, entry) : null;
      if (found) return found;
    }
    return this.#probe(joinRel(pkg.dir, 'src/index')) ?? this.#probe(joinRel(pkg.dir, 'index'));
  }

  #fromExports(pkg: WorkspacePackage, subpath: string): string | null {
    const exports = pkg.manifest.exports;
    if (exports === undefined || exports === null) return null;
    const isSubpathMap =
      typeof exports === 'object' && !Array.isArray(exports) && Object.keys(exports).some((key) => key.startsWith('.'));
    const entry = isSubpathMap ? (exports as Record<string, unknown>)[subpath] : subpath === '.' ? exports : undefined;
    for (const target of this.#conditionTargets(entry)) {
      const found = this.#target(pkg.dir, target);
      if (found) return found;
    }
    return null;
  }

  #conditionTargets(entry: unknown): string[] {
    if (typeof entry === 'string') return [entry];
    if (Array.isArray(entry)) return entry.flatMap((item) => this.#conditionTargets(item));
    if (!entry || typeof entry !== 'object') return [];
    const record = entry as Record<string, unknown>;
    const keys = [
      ...CONDITIONS.filter((key) => key in record),
      ...Object.keys(record).filter((key) => !CONDITIONS.includes(key)),
    ];
    return keys.flatMap((key) => this.#conditionTargets(record[key]));
  }

  /** A manifest target; built outputs missing from the repo fall back to the matching file under src/. */
  #target(dir: string, target: string): string | null {
    const direct = this.#probe(joinRel(dir, target));
    if (direct) return direct;
    const stripped = target
      .replace(/^\.\//, '')
      .replace(/\.d\.[mc]?ts$/, '')
      .replace(/\.[mc]?[jt]sx?$/, '');
    const asSource = stripped.replace(/^(dist|lib|build|out|esm|cjs)(\/(esm|cjs|types))?\//, 'src/');
    return this.#probe(joinRel(dir, asSource)) ?? this.#probe(joinRel(dir, stripped));
  }

  #readJson(file: string): unknown {
    try {
      return parseJsonc(readFileSync(join(this.#root, file), 'utf8'));
    } catch {
      return null;
    }
  }
}
