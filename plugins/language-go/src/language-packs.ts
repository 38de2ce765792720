import type { LanguagePack } from '@agentgov/core/contracts';
import type Parser from 'tree-sitter';
import Go from 'tree-sitter-go';
import { goEntryPoint, goModules } from './go-modules.js';
import { walkGo } from './go-walker.js';

export const LANGUAGE_PACKS: readonly LanguagePack[] = Object.freeze([
  {
    name: 'go',
    extensions: ['.go'],
    grammar: Go,
    moduleSystem: 'pack',
    modules: goModules,
    entryPoint: goEntryPoint,
    extract: (tree: unknown, source: string) => walkGo(tree as Parser.Tree, source),
    // Index worker threads import this module (not the plugin entry, which loads the whole core)
    // and pick the pack by name from LANGUAGE_PACKS.
    workerModule: { url: import.meta.url, exportName: 'LANGUAGE_PACKS' },
  },
]);
