import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';

export interface ResolvedPluginModule {
  /** Absolute file to import. */
  file: string;
  /** Where it was resolved from: `path` (relative to the config) or `package`. */
  kind: 'path' | 'package';
  version: string | null;
}

export const isPathSpecifier = (specifier: string): boolean =>
  specifier.startsWith('./') ||
  specifier.startsWith('../') ||
  specifier === '.' ||
  specifier === '..' ||
  isAbsolute(specifier);

function readVersion(packageJson: string): string | null {
  try {
    const version = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' ? version : null;
  } catch {
    return null;
  }
}

/**
 * Resolves a plugin specifier: a path relative to `baseDir` (a file, or a directory with a
 * package.json or index.js), or a package name looked up from `baseDir` and then from each of
 * `fallbackDirs` (the host's own install, so bundled plugins always resolve).
 * Returns the reason when it cannot be resolved.
 */
export function resolvePluginModule(
  specifier: string,
  baseDir: string,
  fallbackDirs: string[] = [],
): ResolvedPluginModule | { error: string } {
  if (isPathSpecifier(specifier)) {
    const target = resolve(baseDir, specifier);
    if (!existsSync(target)) return { error: `path ${target} does not exist` };
    try {
      const file = createRequire(join(baseDir, 'noop.js')).resolve(target);
      const isDir = statSync(target).isDirectory();
      const version =
        isDir && existsSync(join(target, 'package.json')) ? readVersion(join(target, 'package.json')) : null;
      return { file, kind: 'path', version };
    } catch (error) {
      return { error: `path ${target} has no loadable entry (${(error as Error).message.split('\n')[0]})` };
    }
  }
  const tried: string[] = [];
  for (const dir of [baseDir, ...fallbackDirs]) {
    tried.push(dir);
    try {
      const requireFrom = createRequire(join(dir, 'noop.js'));
      const file = requireFrom.resolve(specifier);
      let version: string | null = null;
      try {
        version = readVersion(requireFrom.resolve(`${specifier}/package.json`));
      } catch {
        version = findPackageVersion(file);
      }
      return { file, kind: 'package', version };
    } catch {
      // try the next directory
    }
  }
  return { error: `package '${specifier}' is not installed (looked from ${tried.join(', ')})` };
}

function findPackageVersion(file: string): string | null {
  let dir = dirname(file);
  while (dir !== dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) return readVersion(candidate);
    dir = dirname(dir);
  }
  return null;
}
