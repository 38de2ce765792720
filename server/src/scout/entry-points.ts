import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { isWithinDirectory, type LanguagePack } from '@agentgov/core';
import { parse as parseToml } from 'smol-toml';
import { repoTextReader } from '../paths/repo-text.js';

export type EntryPointKind =
  'bin' | 'main' | 'module' | 'exports' | 'python-main-module' | 'python-main-guard' | 'console-script';

export interface EntryPoint {
  /** Repo-relative path of the entry file. */
  path: string;
  kind: EntryPointKind;
  /** Command, export subpath or script name, when the declaration has one. */
  name: string | null;
  /** The manifest that declares it (package.json, pyproject.toml), or the file itself. */
  declared_in: string;
  /** Whether the file is in the index (a `dist/` target usually is not). */
  indexed: boolean;
  /** For a build output that is not indexed: the indexed source file it is built from, when one matches. */
  source?: string;
  /** Other declarations of the same file (a console script that also has a `__main__` guard): one entry per file. */
  also?: { kind: EntryPointKind; name: string | null }[];
}

/** What entry-point detection reads: the indexed files, and file contents through the repo root. */
export interface EntryPointInput {
  root: string;
  /** Repo-relative paths of indexed files. */
  files: readonly string[];
  /** Manifests found in these directories are read (repo-relative, '' = root). */
  manifestDirs?: readonly string[];
  /** Language packs whose `entryPoints` add their ecosystem's entry points (Cargo binaries, ...). */
  packs?: readonly LanguagePack[];
}

const MAIN_GUARD = /^if\s+__name__\s*==\s*['"]__main__['"]\s*:/m;

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Every string leaf of a package.json `exports` value, with the subpath it belongs to. */
function exportTargets(value: unknown, subpath: string, out: { subpath: string; target: string }[]): void {
  if (typeof value === 'string') out.push({ subpath, target: value });
  else if (Array.isArray(value)) for (const item of value) exportTargets(item, subpath, out);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) exportTargets(inner, key.startsWith('.') ? key : subpath, out);
  }
}

/** The directories whose manifests count: the root and every ancestor directory of an indexed file. */
function candidateDirs(files: readonly string[]): string[] {
  const dirs = new Set<string>(['']);
  for (const file of files) {
    let dir = posix.dirname(file);
    while (dir !== '.' && !dirs.has(dir)) {
      dirs.add(dir);
      dir = posix.dirname(dir);
    }
  }
  return [...dirs].sort();
}

const BUILD_DIR = /(^|\/)(dist|build|lib|out)\//;
const SOURCE_EXTENSIONS: Record<string, string[]> = {
  '.js': ['.ts', '.tsx', '.js', '.jsx'],
  '.mjs': ['.mts', '.mjs'],
  '.cjs': ['.cts', '.cjs'],
};

/**
 * `pkg/dist/src/main.js` → `pkg/src/main.ts`, `dist/index.js` → `src/index.ts`: the source of a build output, if
 * indexed.
 */
export function sourceOf(path: string, indexed: Set<string>): string | undefined {
  if (!BUILD_DIR.test(path)) return undefined;
  const ext = posix.extname(path);
  const stem = path.slice(0, path.length - ext.length);
  const stripped = stem.replace(BUILD_DIR, '$1');
  const withSrc = stem.replace(BUILD_DIR, '$1src/');
  for (const base of [stripped, withSrc]) {
    for (const candidate of SOURCE_EXTENSIONS[ext] ?? [ext])
      if (indexed.has(`${base}${candidate}`)) return `${base}${candidate}`;
  }
  return undefined;
}

function packageJsonEntries(root: string, dir: string, indexed: Set<string>): EntryPoint[] {
  const manifest = posix.join(dir, 'package.json');
  const pkg = readJson(join(root, manifest));
  if (!pkg) return [];
  const entries: EntryPoint[] = [];
  const add = (target: string, kind: EntryPointKind, name: string | null) => {
    if (target.includes('*')) return;
    const path = posix.normalize(posix.join(dir, target));
    if (path.startsWith('..')) return;
    const source = indexed.has(path) ? undefined : sourceOf(path, indexed);
    entries.push({
      path,
      kind,
      name,
      declared_in: manifest,
      indexed: indexed.has(path),
      ...(source ? { source } : {}),
    });
  };
  const pkgName = typeof pkg['name'] === 'string' ? pkg['name'] : null;
  const bin = pkg['bin'];
  if (typeof bin === 'string') add(bin, 'bin', pkgName);
  else if (bin && typeof bin === 'object')
    for (const [name, target] of Object.entries(bin)) if (typeof target === 'string') add(target, 'bin', name);
  if (typeof pkg['main'] === 'string') add(pkg['main'], 'main', null);
  if (typeof pkg['module'] === 'string') add(pkg['module'], 'module', null);
  const targets: { subpath: string; target: string }[] = [];
  exportTargets(pkg['exports'], '.', targets);
  const seen = new Set<string>();
  for (const { subpath, target } of targets) {
    if (seen.has(`${subpath}\0${target}`) || /\.d\.[cm]?ts$/.test(target) || target.endsWith('.json')) continue;
    seen.add(`${subpath}\0${target}`);
    add(target, 'exports', subpath);
  }
  return entries;
}

/** `pkg.module:func` → the module's file among the indexed ones (flat or `src/` layout, module or package). */
function moduleFile(dir: string, module: string, indexed: Set<string>): string | undefined {
  const base = module.replaceAll('.', '/');
  for (const prefix of ['', 'src/']) {
    for (const candidate of [`${base}.py`, `${base}/__init__.py`]) {
      const path = posix.normalize(posix.join(dir, prefix, candidate));
      if (indexed.has(path)) return path;
    }
  }
  return undefined;
}

function pyprojectEntries(root: string, dir: string, indexed: Set<string>): EntryPoint[] {
  const manifest = posix.join(dir, 'pyproject.toml');
  const file = join(root, manifest);
  if (!existsSync(file)) return [];
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return [];
  }
  const project = (doc['project'] ?? {}) as Record<string, unknown>;
  const poetry = ((doc['tool'] as Record<string, unknown> | undefined)?.['poetry'] ?? {}) as Record<string, unknown>;
  const scripts = {
    ...(project['scripts'] as object),
    ...(project['gui-scripts'] as object),
    ...(poetry['scripts'] as object),
  } as Record<string, unknown>;
  const entries: EntryPoint[] = [];
  for (const [name, spec] of Object.entries(scripts)) {
    if (typeof spec !== 'string') continue;
    const module = spec.split(':')[0]!.trim();
    const path = moduleFile(dir, module, indexed);
    entries.push({
      path: path ?? module,
      kind: 'console-script',
      name,
      declared_in: manifest,
      indexed: path !== undefined,
    });
  }
  return entries;
}

/**
 * Entry points: package.json `bin`/`main`/`module`/`exports` and pyproject console scripts of every
 * manifest next to the sources, Python `__main__.py` modules, Python files with an
 * `if __name__ == "__main__":` guard, and what the language packs' `entryPoints` find.
 */
export function findEntryPoints(input: EntryPointInput): EntryPoint[] {
  const indexed = new Set(input.files);
  const entries: EntryPoint[] = [];
  for (const dir of input.manifestDirs ?? candidateDirs(input.files)) {
    entries.push(...packageJsonEntries(input.root, dir, indexed), ...pyprojectEntries(input.root, dir, indexed));
  }
  for (const path of input.files) {
    if (!path.endsWith('.py')) continue;
    if (posix.basename(path) === '__main__.py') {
      entries.push({
        path,
        kind: 'python-main-module',
        name: pythonModuleOf(posix.dirname(path), indexed),
        declared_in: path,
        indexed: true,
      });
      continue;
    }
    let text: string;
    try {
      text = readFileSync(join(input.root, path), 'utf8');
    } catch {
      continue;
    }
    if (MAIN_GUARD.test(text))
      entries.push({ path, kind: 'python-main-guard', name: null, declared_in: path, indexed: true });
  }
  entries.push(...packEntries(input, indexed));
  // declared entry points first (manifests), then guards; within each, ones that map to indexed code first
  const weight = (e: EntryPoint) => (e.kind === 'python-main-guard' ? 2 : 0) + (e.indexed || e.source ? 0 : 1);
  const sorted = entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => weight(a.e) - weight(b.e) || a.i - b.i)
    .map(({ e }) => e);
  return onePerFile(sorted);
}

/** What the language packs find; a pack that throws adds nothing (entry points are a briefing, not a contract). */
function packEntries(input: EntryPointInput, indexed: Set<string>): EntryPoint[] {
  const root = input.root;
  const readText = repoTextReader(root);
  const entries: EntryPoint[] = [];
  for (const pack of input.packs ?? []) {
    if (!pack.entryPoints) continue;
    let found: ReturnType<NonNullable<LanguagePack['entryPoints']>> = [];
    try {
      found = pack.entryPoints({ root, files: indexed, readText });
    } catch {
      continue;
    }
    for (const entry of found) {
      if (!isWithinDirectory(root, join(root, entry.path))) continue;
      entries.push({ ...entry, indexed: indexed.has(entry.path) });
    }
  }
  return entries;
}

/** Keeps the first (most declared) entry of each file; the file's other declarations go to its `also`. */
function onePerFile(entries: EntryPoint[]): EntryPoint[] {
  const byPath = new Map<string, EntryPoint>();
  for (const entry of entries) {
    const first = byPath.get(entry.path);
    if (!first) byPath.set(entry.path, { ...entry });
    else if (!(first.kind === entry.kind && first.name === entry.name))
      (first.also ??= []).push({ kind: entry.kind, name: entry.name });
  }
  return [...byPath.values()];
}

/**
 * The dotted name a package directory is imported by: its path from the first directory that is not
 * itself a package (has no `__init__.py`), so `src/flask` in a `src/` layout is `flask`.
 */
export function pythonModuleOf(dir: string, indexed: Set<string>): string {
  const parts = dir === '.' ? [] : dir.split('/');
  let start = parts.length;
  while (start > 0 && indexed.has(posix.join(...parts.slice(0, start), '__init__.py'))) start -= 1;
  const module = parts.slice(start).join('.');
  return module || parts.join('.');
}
