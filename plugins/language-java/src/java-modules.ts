import type { PackModules, PackModulesContext } from '@agentgov/core/contracts';

const JAVA = /\.java$/;
/** The package line; comments and annotations may precede it (`package-info.java`), so it is searched, not anchored. */
const PACKAGE_LINE = /^\s*package\s+([\w$]+(?:\s*\.\s*[\w$]+)*)\s*;/m;
/** Source roots of the Maven and Gradle layouts: tried first, before any file is read. */
const CONVENTIONAL_ROOTS = /^(?:(.*\/)?src\/(?:main|test|testFixtures|integrationTest|[\w-]+)\/(?:java|kotlin))\//;

function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/**
 * Java's import resolution over one snapshot: every `.java` file's fully qualified type name from
 * its package and file name (`src/main/java/com/acme/Util.java` → `com.acme.Util`). A directory's
 * package is the package line of one of its files, read once per directory, so every layout works
 * (Maven/Gradle `src/main/java` and `src/test/java`, a plain `src/`, the repository root); when no
 * file of the directory reads, the Maven/Gradle layout of its path says it.
 */
export class JavaModules implements PackModules {
  /** Fully qualified top-level type name → files declaring it (one per source root that has it). */
  readonly #types = new Map<string, string[]>();
  /** Package name → its files, across every source root (main and test share a package). */
  readonly #packages = new Map<string, string[]>();
  /** File → its package name. */
  readonly #packageOf = new Map<string, string>();

  constructor(context: PackModulesContext) {
    const byDir = new Map<string, string[]>();
    for (const path of context.files) {
      if (!JAVA.test(path)) continue;
      const dir = dirOf(path);
      const list = byDir.get(dir);
      if (list) list.push(path);
      else byDir.set(dir, [path]);
    }
    for (const [dir, files] of byDir) {
      const pkg = this.#packageOfDir(dir, files, context);
      if (pkg === null) continue;
      for (const file of files) {
        const base = file.slice(file.lastIndexOf('/') + 1).replace(JAVA, '');
        this.#packageOf.set(file, pkg);
        const packageFiles = this.#packages.get(pkg);
        if (packageFiles) packageFiles.push(file);
        else this.#packages.set(pkg, [file]);
        if (base === 'package-info' || base === 'module-info') continue;
        const fqn = pkg === '' ? base : `${pkg}.${base}`;
        const types = this.#types.get(fqn);
        if (types) types.push(file);
        else this.#types.set(fqn, [file]);
      }
    }
    for (const list of this.#packages.values()) list.sort();
  }

  /**
   * The package of a directory's files: the package line of one of them, or the Maven/Gradle layout when none reads.
   */
  #packageOfDir(dir: string, files: string[], context: PackModulesContext): string | null {
    const conventional = CONVENTIONAL_ROOTS.exec(`${dir}/`);
    const fromLayout = conventional ? dir.slice(conventional[0].length).split('/').filter(Boolean).join('.') : null;
    // A file that is not package-info.java says the package best (package-info may carry only annotations).
    const sample = files.find((file) => !file.endsWith('/package-info.java')) ?? files[0]!;
    const text = context.readText(sample);
    if (text === null) return fromLayout;
    // The package line wins when the path disagrees with it: javac goes by the line.
    return PACKAGE_LINE.exec(text.slice(0, 64 * 1024))?.[1]?.replace(/\s+/g, '') ?? '';
  }

  /** The package a file declares (as its directory's sample says), or null for files this snapshot did not see. */
  packageOf(path: string): string | null {
    return this.#packageOf.get(path) ?? null;
  }

  /** Files of a package, across source roots. */
  filesOf(pkg: string): readonly string[] {
    return this.#packages.get(pkg) ?? [];
  }

  /** The files declaring top-level type `fqn` (`com.acme.Util`). */
  typeFiles(fqn: string): readonly string[] {
    return this.#types.get(fqn) ?? [];
  }

  resolve(fromPath: string, specifier: string): string[] {
    if (specifier.endsWith('.*')) {
      const name = specifier.slice(0, -2);
      const pkg = this.#packages.get(name);
      if (pkg) return pkg.filter((path) => !path.endsWith('/package-info.java') && path !== fromPath);
      return this.#type(fromPath, name);
    }
    return this.#type(fromPath, specifier);
  }

  /** `a.b.Outer.Inner` → the file of `a.b.Outer`: the longest prefix that names a top-level type. */
  #type(fromPath: string, name: string): string[] {
    const parts = name.split('.');
    for (let end = parts.length; end >= 1; end--) {
      const files = this.#types.get(parts.slice(0, end).join('.'));
      if (files) return nearest(fromPath, files);
    }
    return [];
  }
}

/**
 * Among files declaring the same type (two modules of one build), those sharing the longest path prefix with `from`.
 */
function nearest(from: string, files: readonly string[]): string[] {
  if (files.length === 1) return [...files];
  const shared = (path: string): number => {
    let i = 0;
    while (i < path.length && i < from.length && path[i] === from[i]) i++;
    return i;
  };
  const best = Math.max(...files.map(shared));
  return files.filter((path) => shared(path) === best);
}

export function javaModules(context: PackModulesContext): JavaModules {
  return new JavaModules(context);
}
