import type { LanguagePack } from '@agentgov/core/contracts';
import type Parser from 'tree-sitter';
import Rust from 'tree-sitter-rust';
import { RustModules } from './rust-modules.js';
import { walkRust } from './rust-walker.js';

export const LANGUAGE_PACKS: readonly LanguagePack[] = Object.freeze([
  {
    name: 'rust',
    extensions: ['.rs'],
    grammar: Rust,
    moduleSystem: 'pack',
    modules: (context) => new RustModules(context),
    entryPoints: (context) => new RustModules(context).entryPoints(),
    extract: (tree: unknown, source: string) => walkRust(tree as Parser.Tree, source),
    flatTree: true,
    // Index worker threads import this module (not the plugin entry, which loads the whole core)
    // and pick the pack by name from LANGUAGE_PACKS.
    workerModule: { url: import.meta.url, exportName: 'LANGUAGE_PACKS' },
  },
]);
