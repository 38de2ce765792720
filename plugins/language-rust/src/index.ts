import { definePlugin } from '@agentgov/core';
import { LANGUAGE_PACKS } from './language-packs.js';
import { RustRefactorEngine } from './refactor/rust-refactor-engine.js';
import { RustModules } from './rust-modules.js';
import { walkRust } from './rust-walker.js';

export const NAME = 'language-rust';

export { LANGUAGE_PACKS, RustModules, RustRefactorEngine, walkRust };

export default definePlugin({
  name: NAME,
  apply(hooks) {
    hooks.languages.tap(NAME, (registry) => {
      // attached here, not in language-packs.js, which index worker threads import
      const refactor = new RustRefactorEngine();
      for (const pack of LANGUAGE_PACKS) registry.add({ ...pack, refactor });
    });
  },
});
