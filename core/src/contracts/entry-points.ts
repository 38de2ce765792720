import type { PackEntryPoint, PackModulesContext } from './language.js';

/**
 * The entry points a language declares in a file's text (Go's `func main()` in package main,
 * Java's `public static void main`): reads every repository file with `extension` through the
 * pack's context and keeps those `entryIn` names as a `main`, sorted by path. `entryIn` returns
 * the program's name, `null` for a main without one, or `false` for a file that is no entry point.
 */
export function scanEntryPoints(
  context: PackModulesContext,
  extension: string,
  entryIn: (path: string, text: string) => string | null | false,
): PackEntryPoint[] {
  const mains: PackEntryPoint[] = [];
  for (const path of context.files) {
    if (!path.endsWith(extension)) continue;
    const text = context.readText(path);
    const name = text === null ? false : entryIn(path, text);
    if (name !== false) mains.push({ path, kind: 'main', name, declared_in: path });
  }
  return mains.sort((a, b) => a.path.localeCompare(b.path));
}
