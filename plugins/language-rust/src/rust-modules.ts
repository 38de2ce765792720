import type { PackEntryPoint, PackModules, PackModulesContext } from '@agentgov/core/contracts';
import { parse as parseToml } from 'smol-toml';

/** Target directories whose top-level files are crate roots of their own (`tests/it.rs`, `src/bin/tool.rs`). */
const TARGET_DIRS = ['src/bin', 'tests', 'examples', 'benches'];

/** One Cargo package found by its `Cargo.toml`. */
interface CargoPackage {
  /** Repository-relative directory ('' at the root). */
  dir: string;
  /** The library's crate name (`my-lib` → `my_lib`), when the package has a library. */
  crateName: string | null;
  /** The library's root file (`src/lib.rs` or `[lib] path`), repository-relative. */
  libRoot: string | null;
}

/** Where a file's module tree is rooted: the directory its module paths start from, and the root file. */
interface ModuleTree {
  dir: string;
  /** The crate root file (null when ambiguous: a shared module under `tests/` has several). */
  root: string | null;
}

const join = (dir: string, path: string): string => (dir === '' ? path : `${dir}/${path}`);
const dirname = (path: string): string => {
  const cut = path.lastIndexOf('/');
  return cut < 0 ? '' : path.slice(0, cut);
};

/**
 * Rust module resolution over one snapshot: a module path (`crate::a::b`, `super::x`, `self::m`,
 * `other_crate::m`, or a path relative to the current module) names the file of that module,
 * `a/b.rs` or `a/b/mod.rs` under the crate's root directory, as `mod` declarations find them. Crate
 * names are the `Cargo.toml` packages of the repository (a workspace's members), each reaching its
 * library root. External crates and the standard library resolve to nothing.
 */
export class RustModules implements PackModules {
  readonly #context: PackModulesContext;
  readonly #manifests = new Map<string, CargoPackage | null>();
  readonly #crates = new Map<string, CargoPackage>();
  readonly #trees = new Map<string, ModuleTree>();

  constructor(context: PackModulesContext) {
    this.#context = context;
    for (const file of context.files) if (file.endsWith('.rs')) this.#packageOf(file);
    for (const dir of this.#workspaceMembers()) this.#manifest(dir);
  }

  /** The library crates by name (for tests and the README's claims). */
  crateNames(): string[] {
    return [...this.#crates.keys()].sort();
  }

  /**
   * Each package's programs: `[[bin]]` targets of its Cargo.toml, `src/main.rs` (named after the
   * package) and `src/bin/*.rs` / `src/bin/<name>/main.rs`; then `examples/` files with a `fn main`.
   */
  entryPoints(): PackEntryPoint[] {
    const entries: PackEntryPoint[] = [];
    const files = this.#context.files;
    for (const [dir, pkg] of this.#manifests) {
      if (!pkg) continue;
      const manifest = join(dir, 'Cargo.toml');
      const doc = this.#read(manifest);
      const name =
        typeof (doc?.['package'] as { name?: unknown } | undefined)?.name === 'string'
          ? (doc!['package'] as { name: string }).name
          : null;
      const declared = new Set<string>();
      const bins = Array.isArray(doc?.['bin']) ? (doc!['bin'] as Array<{ name?: unknown; path?: unknown }>) : [];
      for (const bin of bins) {
        const binName = typeof bin.name === 'string' ? bin.name : null;
        const path =
          typeof bin.path === 'string'
            ? join(dir, bin.path.replace(/^\.\//, ''))
            : binName
              ? join(dir, `src/bin/${binName}.rs`)
              : null;
        if (!path) continue;
        declared.add(path);
        entries.push({ path, kind: 'bin', name: binName, declared_in: manifest });
      }
      const main = join(dir, 'src/main.rs');
      if (files.has(main) && !declared.has(main))
        entries.push({ path: main, kind: 'bin', name, declared_in: manifest });
      const binDir = join(dir, 'src/bin/');
      for (const file of [...files].sort()) {
        if (!file.startsWith(binDir) || declared.has(file)) continue;
        const rest = file.slice(binDir.length);
        const match = /^([^/]+)\.rs$/.exec(rest) ?? /^([^/]+)\/main\.rs$/.exec(rest);
        if (match) entries.push({ path: file, kind: 'bin', name: match[1]!, declared_in: manifest });
      }
      const examples = join(dir, 'examples/');
      for (const file of [...files].sort()) {
        if (!file.startsWith(examples) || !/^[^/]+\.rs$|^[^/]+\/main\.rs$/.test(file.slice(examples.length))) continue;
        if (/^\s*(?:pub\s+)?(?:async\s+)?fn\s+main\s*\(/m.test(this.#context.readText(file) ?? ''))
          entries.push({ path: file, kind: 'main', name: null, declared_in: file });
      }
    }
    return entries;
  }

  /** `[workspace] members` of the root manifest (globs matched against the packages found). */
  #workspaceMembers(): string[] {
    const root = this.#read('Cargo.toml');
    const members = (root?.['workspace'] as { members?: unknown } | undefined)?.members;
    if (!Array.isArray(members)) return [];
    return members.filter((member): member is string => typeof member === 'string' && !member.includes('*'));
  }

  #read(path: string): Record<string, unknown> | null {
    const text = this.#context.readText(path);
    if (text === null) return null;
    try {
      return parseToml(text) as Record<string, unknown>;
    } catch {
      return null;
    }
  }

  #manifest(dir: string): CargoPackage | null {
    const cached = this.#manifests.get(dir);
    if (cached !== undefined) return cached;
    const doc = this.#read(join(dir, 'Cargo.toml'));
    let found: CargoPackage | null = null;
    const pkg = doc?.['package'] as { name?: unknown } | undefined;
    if (doc && pkg) {
      const lib = (doc['lib'] ?? {}) as { name?: unknown; path?: unknown };
      const libPath = typeof lib.path === 'string' ? join(dir, lib.path.replace(/^\.\//, '')) : join(dir, 'src/lib.rs');
      const hasLib = this.#context.files.has(libPath);
      const name = typeof lib.name === 'string' ? lib.name : typeof pkg.name === 'string' ? pkg.name : null;
      found = { dir, crateName: hasLib && name ? name.replaceAll('-', '_') : null, libRoot: hasLib ? libPath : null };
      if (found.crateName && !this.#crates.has(found.crateName)) this.#crates.set(found.crateName, found);
    }
    this.#manifests.set(dir, found);
    return found;
  }

  /** The nearest package above a file. */
  #packageOf(file: string): CargoPackage | null {
    for (let dir = dirname(file); ; dir = dirname(dir)) {
      const found = this.#manifest(dir);
      if (found) return found;
      if (dir === '') return null;
    }
  }

  /** The module tree a file belongs to. */
  #tree(file: string): ModuleTree {
    const cached = this.#trees.get(file);
    if (cached) return cached;
    const files = this.#context.files;
    const pkg = this.#packageOf(file);
    let tree: ModuleTree | null = null;
    if (pkg) {
      const relative = pkg.dir === '' ? file : file.slice(pkg.dir.length + 1);
      for (const target of TARGET_DIRS) {
        if (!relative.startsWith(`${target}/`)) continue;
        const rest = relative.slice(target.length + 1);
        const dir = join(pkg.dir, target);
        const slash = rest.indexOf('/');
        if (slash < 0) tree = { dir, root: file };
        else {
          // `src/bin/tool/main.rs` roots a crate in its own directory; `tests/common/mod.rs` is shared
          const main = join(dir, `${rest.slice(0, slash)}/main.rs`);
          tree = files.has(main) ? { dir: dirname(main), root: main } : { dir, root: null };
        }
        break;
      }
      if (!tree) {
        const src = join(pkg.dir, 'src');
        if (pkg.libRoot && file !== join(src, 'main.rs')) tree = { dir: dirname(pkg.libRoot), root: pkg.libRoot };
        else if (files.has(join(src, 'main.rs'))) tree = { dir: src, root: join(src, 'main.rs') };
      }
    }
    if (!tree) {
      // no manifest: the nearest directory above holding a lib.rs or main.rs
      tree = { dir: dirname(file), root: null };
      for (let dir = dirname(file); ; dir = dirname(dir)) {
        const root = [join(dir, 'lib.rs'), join(dir, 'main.rs')].find((candidate) => files.has(candidate));
        if (root) {
          tree = { dir, root };
          break;
        }
        if (dir === '') break;
      }
    }
    this.#trees.set(file, tree);
    return tree;
  }

  /** A file's module path inside its tree: `src/a/b.rs` → [a, b], `src/a/mod.rs` → [a], the root → []. */
  modulePath(file: string): string[] {
    const tree = this.#tree(file);
    if (file === tree.root) return [];
    const relative = tree.dir === '' ? file : file.slice(tree.dir.length + 1);
    const parts = relative.replace(/\.rs$/, '').split('/');
    if (parts[parts.length - 1] === 'mod') parts.pop();
    return parts;
  }

  /** The file of module `path` in `tree`, if indexed. */
  #fileOf(tree: ModuleTree, path: string[]): string | null {
    if (path.length === 0) return tree.root;
    const base = join(tree.dir, path.join('/'));
    for (const candidate of [`${base}.rs`, `${base}/mod.rs`]) if (this.#context.files.has(candidate)) return candidate;
    return null;
  }

  resolve(fromPath: string, specifier: string): string[] {
    const segments = specifier.split('::').filter((segment) => segment !== '');
    if (segments.length === 0) return [];
    const tree = this.#tree(fromPath);
    const first = segments[0]!;
    let found: string | null = null;
    if (first === 'crate' || first === '$crate') found = this.#fileOf(tree, segments.slice(1));
    else if (first === 'self' || first === 'super') {
      const path = this.modulePath(fromPath);
      let rest = segments;
      if (rest[0] === 'self') rest = rest.slice(1);
      while (rest[0] === 'super') {
        if (path.length === 0) return [];
        path.pop();
        rest = rest.slice(1);
      }
      found = this.#fileOf(tree, [...path, ...rest]);
    } else {
      // relative to the current module (a `mod` it declares), then the crate root (2015 paths), then a crate name
      found =
        this.#fileOf(tree, [...this.modulePath(fromPath), ...segments]) ??
        this.#fileOf(tree, segments) ??
        this.#crateFile(first, segments.slice(1));
    }
    return found ? [found] : [];
  }

  #crateFile(name: string, rest: string[]): string | null {
    const crate = this.#crates.get(name);
    if (!crate?.libRoot) return null;
    return this.#fileOf({ dir: dirname(crate.libRoot), root: crate.libRoot }, rest);
  }
}
