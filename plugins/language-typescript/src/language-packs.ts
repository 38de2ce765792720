import type { LanguagePack } from '@agentgov/core/contracts';
import type Parser from 'tree-sitter';
import JavaScript from 'tree-sitter-javascript';
import TypeScript from 'tree-sitter-typescript';
import { walkEcmascript } from './ecmascript-walker.js';

function extract(tree: unknown, source: string) {
  return walkEcmascript(tree as Parser.Tree, source);
}

/**
 * Index worker threads import this module (not the plugin entry, which loads the whole core) and
 * pick their pack by name from LANGUAGE_PACKS.
 */
const workerModule = { url: import.meta.url, exportName: 'LANGUAGE_PACKS' };

/** The three ECMAScript packs: one grammar each, one walker for all. */
export const LANGUAGE_PACKS: readonly LanguagePack[] = Object.freeze([
  {
    name: 'typescript',
    extensions: ['.ts', '.mts', '.cts'],
    grammar: TypeScript.typescript,
    moduleSystem: 'ecmascript',
    extract,
    flatTree: true,
    workerModule,
  },
  {
    name: 'tsx',
    extensions: ['.tsx'],
    grammar: TypeScript.tsx,
    moduleSystem: 'ecmascript',
    extract,
    flatTree: true,
    workerModule,
  },
  {
    name: 'javascript',
    extensions: ['.js', '.mjs', '.cjs', '.jsx'],
    grammar: JavaScript,
    moduleSystem: 'ecmascript',
    extract,
    flatTree: true,
    workerModule,
  },
]);
