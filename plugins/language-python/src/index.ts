import { definePlugin, type LanguagePack } from '@agentgov/core';
import type Parser from 'tree-sitter';
import Python from 'tree-sitter-python';
import { walkPython } from './python-walker.js';

export const NAME = 'language-python';

export const LANGUAGE_PACKS: readonly LanguagePack[] = Object.freeze([
  { name: 'python', extensions: ['.py', '.pyi'], grammar: Python, moduleSystem: 'python', extract: (tree: unknown, source: string) => walkPython(tree as Parser.Tree, source) },
]);

export { walkPython };

export default definePlugin({
  name: NAME,
  apply(hooks) {
    hooks.languages.tap(NAME, (registry) => {
      for (const pack of LANGUAGE_PACKS) registry.add(pack);
    });
  },
});
