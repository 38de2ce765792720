import type { LanguagePack, PackEntryPoint, PackModulesContext } from '@agentgov/core/contracts';
import type Parser from 'tree-sitter';
import Go from 'tree-sitter-go';
import { goEntryPoint, goModules } from './go-modules.js';
import { walkGo } from './go-walker.js';

/** Go's test files: `_test.go` (the go tool's own rule). */
export const GO_TEST_PATH = /_test\.go$/;

/** The `main` packages' files that declare `func main()`: a Go program each, named by its directory. */
function goEntryPoints(context: PackModulesContext): PackEntryPoint[] {
  const mains: PackEntryPoint[] = [];
  for (const path of context.files) {
    if (!path.endsWith('.go')) continue;
    const text = context.readText(path);
    const entry = text === null ? null : goEntryPoint(path, text);
    if (entry) mains.push({ path, kind: 'main', name: entry.name, declared_in: path });
  }
  return mains.sort((a, b) => a.path.localeCompare(b.path));
}

export const LANGUAGE_PACKS: readonly LanguagePack[] = Object.freeze([
  {
    name: 'go',
    extensions: ['.go'],
    grammar: Go,
    moduleSystem: 'pack',
    modules: goModules,
    entryPoints: goEntryPoints,
    testPath: GO_TEST_PATH,
    extract: (tree: unknown, source: string) => walkGo(tree as Parser.Tree, source),
    // Index worker threads import this module (not the plugin entry, which loads the whole core)
    // and pick the pack by name from LANGUAGE_PACKS.
    workerModule: { url: import.meta.url, exportName: 'LANGUAGE_PACKS' },
  },
]);
