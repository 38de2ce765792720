import { scanEntryPoints } from '@agentgov/core/contracts';
import type { LanguagePack, PackEntryPoint, PackModulesContext } from '@agentgov/core/contracts';
import type Parser from 'tree-sitter';
import Go from 'tree-sitter-go';
import { goEntryPoint, goModules } from './go-modules.js';
import { walkGo } from './go-walker.js';

/** Go's test files: `_test.go` (the go tool's own rule). */
export const GO_TEST_PATH = /_test\.go$/;

/** The `main` packages' files that declare `func main()`: a Go program each, named by its directory. */
function goEntryPoints(context: PackModulesContext): PackEntryPoint[] {
  return scanEntryPoints(context, '.go', (path, text) => {
    const entry = goEntryPoint(path, text);
    return entry ? entry.name : false;
  });
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
    flatTree: true,
    // Index worker threads import this module (not the plugin entry, which loads the whole core)
    // and pick the pack by name from LANGUAGE_PACKS.
    workerModule: { url: import.meta.url, exportName: 'LANGUAGE_PACKS' },
  },
]);
