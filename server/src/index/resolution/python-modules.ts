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
    for (const root of [own, ...this.#roots.filter((root) => root !== own)]) {
      const found = this.#module(joinRel(root, rest));
      if (found) return found;
    }
    return null;
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
