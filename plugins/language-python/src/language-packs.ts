import type { LanguagePack } from '@agentgov/core/contracts';
import type Parser from 'tree-sitter';
import Python from 'tree-sitter-python';
import { walkPython } from './python-walker.js';

export const LANGUAGE_PACKS: readonly LanguagePack[] = Object.freeze([
  {
    name: 'python',
    extensions: ['.py', '.pyi'],
    grammar: Python,
    moduleSystem: 'python',
    extract: (tree: unknown, source: string) => walkPython(tree as Parser.Tree, source),
    flatTree: true,
    // Index worker threads import this module (not the plugin entry, which loads the whole core)
    // and pick the pack by name from LANGUAGE_PACKS.
    workerModule: { url: import.meta.url, exportName: 'LANGUAGE_PACKS' },
  },
]);
