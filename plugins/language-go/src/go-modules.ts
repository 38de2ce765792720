import { posix } from 'node:path';
import type { PackModules, PackModulesContext } from '@agentgov/core/contracts';
import { createRequire } from 'node:module';
import { sharedTreeSitter } from '@agentgov/core/tree-sitter-runtime';
import type Parser from 'tree-sitter';
import Go from 'tree-sitter-go';

/** A module of the repository: its `go.mod` directory ('' = root) and module path. */
interface GoModule {
  dir: string;
  path: string;
}

const MODULE_LINE = /^\s*module\s+("?)([^\s"]+)\1\s*(?:\/\/.*)?$/m;

/** The module path a `go.mod` declares, or null. */
export function modulePathOf(goMod: string): string | null {
  return MODULE_LINE.exec(goMod)?.[2] ?? null;
}

export function isGoTestFile(path: string): boolean {
  return path.endsWith('_test.go');
}

/** Cheap pre-filter; the syntax tree decides. */
const MAYBE_MAIN = /^package\s+main\b[^]*^func\s+main\s*\(/m;
/** The thread's one tree-sitter runtime: a second copy's trees would not work with the indexer's. */
const TreeSitter = sharedTreeSitter(() => createRequire(import.meta.url)('tree-sitter') as typeof Parser);
let parser: Parser | null = null;

/**
 * A program's entry: a non-test file of `package main` that declares `func main()` (`go run`/`go
 * build` target); named after its directory, the command `go install` would build.
 */
export function goEntryPoint(path: string, source: string): { name: string | null } | null {
  if (isGoTestFile(path) || !MAYBE_MAIN.test(source)) return null;
  if (!parser) {
    parser = new TreeSitter();
    parser.setLanguage(Go as Parser.Language);
  }
  const root = parser.parse(source).rootNode;
  let isMainPackage = false;
  let hasMain = false;
  for (const node of root.namedChildren) {
    if (node.type === 'package_clause') isMainPackage = node.namedChildren[0]?.text === 'main';
    else if (node.type === 'function_declaration' && node.childForFieldName('name')?.text === 'main')
      hasMain = (node.childForFieldName('parameters')?.namedChildCount ?? 1) === 0;
  }
  if (!isMainPackage || !hasMain) return null;
  const dir = posix.dirname(path);
  return { name: dir === '.' ? null : posix.basename(dir) };
}

/**
 * Go import resolution over one snapshot: an import path names a package, the directory under the
 * `go.mod` whose module path prefixes it; the import reaches every non-test `.go` file of that
 * directory. Standard-library and dependency imports resolve to nothing (external).
 */
export class GoModules implements PackModules {
  /** Directory → its `.go` files, sorted. */
  readonly #packages = new Map<string, string[]>();
  /** Every `go.mod` found at or above a package directory, longest module path first. */
  readonly #modules: GoModule[] = [];

  constructor(context: PackModulesContext) {
    for (const file of context.files) {
      if (!file.endsWith('.go')) continue;
      const dir = posix.dirname(file) === '.' ? '' : posix.dirname(file);
      let list = this.#packages.get(dir);
      if (!list) this.#packages.set(dir, (list = []));
      list.push(file);
    }
    for (const list of this.#packages.values()) list.sort();
    const seen = new Map<string, GoModule | null>();
    const moduleAt = (dir: string): GoModule | null => {
      let found = seen.get(dir);
      if (found !== undefined) return found;
      const text = context.readText(dir === '' ? 'go.mod' : `${dir}/go.mod`);
      const path = text === null ? null : modulePathOf(text);
      found = path ? { dir, path } : null;
      seen.set(dir, found);
      return found;
    };
    for (const dir of this.#packages.keys()) {
      // Every go.mod on the way up: nested modules shadow outer ones by their longer directory.
      for (let at = dir; ; at = posix.dirname(at) === '.' ? '' : posix.dirname(at)) {
        moduleAt(at);
        if (at === '') break;
      }
    }
    for (const module of seen.values()) if (module) this.#modules.push(module);
    this.#modules.sort((a, b) => b.path.length - a.path.length || b.dir.length - a.dir.length);
  }

  /** The package directory an import path names inside the repository, or null. */
  packageDir(specifier: string): string | null {
    for (const module of this.#modules) {
      if (specifier !== module.path && !specifier.startsWith(`${module.path}/`)) continue;
      const rest = specifier.slice(module.path.length + 1);
      const dir = posix.normalize(posix.join(module.dir, rest));
      if (dir.startsWith('..')) return null;
      return dir === '.' ? '' : dir;
    }
    return null;
  }

  /** The import path of a package directory: under the innermost `go.mod` above it; null when none covers it. */
  importPathOf(dir: string): string | null {
    let best: GoModule | null = null;
    for (const module of this.#modules) {
      if (module.dir !== '' && dir !== module.dir && !dir.startsWith(`${module.dir}/`)) continue;
      if (!best || module.dir.length > best.dir.length) best = module;
    }
    if (!best) return null;
    const rest = best.dir === '' ? dir : dir.slice(best.dir.length + 1);
    return rest === '' ? best.path : `${best.path}/${rest}`;
  }

  resolve(_fromPath: string, specifier: string): string[] {
    const dir = this.packageDir(specifier);
    if (dir === null) return [];
    return (this.#packages.get(dir) ?? []).filter((file) => !isGoTestFile(file));
  }

  /**
   * The files whose package-level names `path` sees without an import: the other files of its
   * directory, non-test files first. Symmetric, so a change to any file re-resolves the others.
   * Test files come last: a non-test file can only mean a name a test file declares when nothing
   * else declares it, which Go would not compile; the external `x_test` package shares the
   * directory and is not told apart.
   */
  packageScope(path: string): string[] {
    const dir = posix.dirname(path) === '.' ? '' : posix.dirname(path);
    const others = (this.#packages.get(dir) ?? []).filter((file) => file !== path);
    return [...others.filter((file) => !isGoTestFile(file)), ...others.filter(isGoTestFile)];
  }
}

export function goModules(context: PackModulesContext): GoModules {
  return new GoModules(context);
}
