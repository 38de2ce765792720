import { posix } from 'node:path';

function dirOf(path: string): string {
  const dir = posix.dirname(path);
  return dir === '.' ? '' : dir;
}

function joinRel(...parts: string[]): string {
  return parts.filter((part) => part.length > 0).join('/');
}

/**
 * Resolves Python module names to repository files: absolute imports against the source roots
 * (directories that hold top-level packages), relative imports against the importing package,
 * packages through `__init__.py`.
 */
export class PythonModuleResolver {
  readonly #files: ReadonlySet<string>;
  readonly #roots: string[];
  /** Position of each source root in `#roots` (the order absolute imports try them in). */
  readonly #rank = new Map<string, number>();
  /**
   * Module path below a directory (`a/b` for `a/b.py` or `a/b/__init__.py`) → every directory it
   * sits below, so an absolute import looks up the roots that hold it instead of trying every root:
   * a monorepo has hundreds of roots and tens of thousands of imports.
   */
  readonly #dirsHolding = new Map<string, string[]>();

  constructor(files: ReadonlySet<string>) {
    this.#files = files;
    const roots = new Map<string, number>([['', 0]]);
    for (const file of files) {
      if (!file.endsWith('.py')) continue;
      const root = this.#rootOf(file);
      roots.set(root, (roots.get(root) ?? 0) + 1);
    }
    // Repo root first, then the roots holding the most modules.
    this.#roots = [...roots.entries()]
      .sort((a, b) => (a[0] === '' ? -1 : b[0] === '' ? 1 : b[1] - a[1]))
      .map(([root]) => root);
    this.#roots.forEach((root, i) => this.#rank.set(root, i));
    for (const file of files) {
      const base = /\/__init__\.pyi?$/.test(file) ? dirOf(file) : file.replace(/\.pyi?$/, '');
      if (base === file || base === '') continue;
      // Every split of `base` into directory + module path: `a/b/c` → ('', a/b/c), (a, b/c), (a/b, c).
      for (let cut = 0; cut >= 0; cut = base.indexOf('/', cut + 1)) {
        const dir = cut === 0 ? '' : base.slice(0, cut);
        const rest = cut === 0 ? base : base.slice(cut + 1);
        const dirs = this.#dirsHolding.get(rest);
        if (!dirs) this.#dirsHolding.set(rest, [dir]);
        else if (!dirs.includes(dir)) dirs.push(dir);
      }
    }
  }

  /** The directory above the outermost package containing `file`. */
  #rootOf(file: string): string {
    let dir = dirOf(file);
    while (dir !== '' && this.#files.has(joinRel(dir, '__init__.py'))) dir = dirOf(dir);
    return dir;
  }

  /** A module name as written (`a.b`, `.c`, `..`) imported from `fromPath` → its file, or null. */
  resolve(fromPath: string, specifier: string): string | null {
    const dots = /^\.*/.exec(specifier)![0].length;
    const rest = specifier
      .slice(dots)
      .split('.')
      .filter((part) => part.length > 0)
      .join('/');
    if (dots > 0) {
      let base = dirOf(fromPath);
      for (let level = 1; level < dots; level++) {
        if (base === '') return null;
        base = dirOf(base);
      }
      return this.#module(joinRel(base, rest));
    }
    const own = this.#rootOf(fromPath);
    const mine = this.#module(joinRel(own, rest));
    if (mine) return mine;
    if (rest === '') {
      for (const root of this.#roots) if (root !== own && this.#module(root)) return this.#module(root);
      return null;
    }
    // The first of the other roots (in `#roots` order) that holds the module.
    let best: string | null = null;
    let bestRank = Infinity;
    for (const dir of this.#dirsHolding.get(rest) ?? []) {
      const rank = this.#rank.get(dir);
      if (rank === undefined || rank >= bestRank || dir === own) continue;
      const found = this.#module(joinRel(dir, rest));
      if (found) {
        best = found;
        bestRank = rank;
      }
    }
    return best;
  }

  /** `name` as a submodule of the package whose `__init__.py` is `moduleFile`, or null. */
  submodule(moduleFile: string, name: string): string | null {
    if (posix.basename(moduleFile) !== '__init__.py') return null;
    return this.#module(joinRel(dirOf(moduleFile), name));
  }

  #module(base: string): string | null {
    for (const candidate of [
      `${base}.py`,
      joinRel(base, '__init__.py'),
      `${base}.pyi`,
      joinRel(base, '__init__.pyi'),
    ]) {
      if (candidate !== '.py' && this.#files.has(candidate)) return candidate;
    }
    return null;
  }
}
