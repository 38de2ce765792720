import { posix } from 'node:path';

/** Module names of Python files: packages are directories holding `__init__.py`, up to the first that does not. */
export class PythonModuleNames {
  readonly #isPackage: (dir: string) => boolean;

  /**
   * `hasInit(dir)`: the directory holds `__init__.py`. A directory inside a package is a (namespace) subpackage too.
   */
  constructor(hasInit: (dir: string) => boolean) {
    const memo = new Map<string, boolean>();
    const isPackage = (dir: string): boolean => {
      let known = memo.get(dir);
      if (known === undefined) {
        const parent = posix.dirname(dir);
        known = hasInit(dir) || (parent !== '.' && parent !== '' && hasInit(parent) && isPackage(parent));
        memo.set(dir, known);
      }
      return known;
    };
    this.#isPackage = isPackage;
  }

  /** `src/flask/helpers.py` → `flask.helpers`; `src/flask/__init__.py` → `flask`. */
  moduleOf(path: string): string {
    const stem = posix.basename(path).replace(/\.pyi?$/, '');
    const parts = stem === '__init__' ? [] : [stem];
    let dir = posix.dirname(path);
    while (dir !== '.' && dir !== '' && this.#isPackage(dir)) {
      parts.unshift(posix.basename(dir));
      dir = posix.dirname(dir);
    }
    return parts.join('.');
  }

  /** The package a module's relative imports count from: the module's own package (`__init__` is its package). */
  packageOf(path: string): string[] {
    const module = this.moduleOf(path).split('.').filter(Boolean);
    return posix.basename(path).startsWith('__init__.') ? module : module.slice(0, -1);
  }
}

/** The absolute module a specifier names from a package (`..utils` from `a.b` → `a.utils`), or null past the top. */
export function absoluteModule(specifier: string, fromPackage: string[]): string | null {
  const dots = /^\.*/.exec(specifier)![0].length;
  if (dots === 0) return specifier;
  const up = dots - 1;
  if (up > fromPackage.length) return null;
  const base = fromPackage.slice(0, fromPackage.length - up);
  const rest = specifier.slice(dots);
  return [...base, ...(rest ? rest.split('.') : [])].join('.');
}

/** The shortest relative specifier from a package to a module in the same top-level package, or null. */
export function relativeSpecifier(target: string, fromPackage: string[]): string | null {
  const parts = target.split('.');
  let common = 0;
  while (common < fromPackage.length && common < parts.length && fromPackage[common] === parts[common]) common += 1;
  if (common === 0) return null;
  return '.'.repeat(fromPackage.length - common + 1) + parts.slice(common).join('.');
}

/** `old` renamed to `next` when `module` is `old` or inside it; null when it is neither. */
export function renamedModule(module: string, old: string, next: string): string | null {
  if (module === old) return next;
  if (module.startsWith(`${old}.`)) return next + module.slice(old.length);
  return null;
}
