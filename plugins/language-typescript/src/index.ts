import { definePlugin, type LanguagePack } from '@agentgov/core';
import type Parser from 'tree-sitter';
import JavaScript from 'tree-sitter-javascript';
import TypeScript from 'tree-sitter-typescript';
import { walkEcmascript } from './ecmascript-walker.js';

export const NAME = 'language-typescript';

function extract(tree: unknown, source: string) {
  return walkEcmascript(tree as Parser.Tree, source);
}

/** The three ECMAScript packs: one grammar each, one walker for all. */
export const LANGUAGE_PACKS: readonly LanguagePack[] = Object.freeze([
  { name: 'typescript', extensions: ['.ts', '.mts', '.cts'], grammar: TypeScript.typescript, moduleSystem: 'ecmascript', extract },
  { name: 'tsx', extensions: ['.tsx'], grammar: TypeScript.tsx, moduleSystem: 'ecmascript', extract },
  { name: 'javascript', extensions: ['.js', '.mjs', '.cjs', '.jsx'], grammar: JavaScript, moduleSystem: 'ecmascript', extract },
]);

export { walkEcmascript };

export default definePlugin({
  name: NAME,
  apply(hooks) {
    hooks.languages.tap(NAME, (registry) => {
      for (const pack of LANGUAGE_PACKS) registry.add(pack);
    });
  },
});
