import { definePlugin } from '@agentgov/core';
import { LANGUAGE_PACKS } from './language-packs.js';
import { RustModules } from './rust-modules.js';
import { walkRust } from './rust-walker.js';

export const NAME = 'language-rust';

export { LANGUAGE_PACKS, RustModules, walkRust };

export default definePlugin({
  name: NAME,
  apply(hooks) {
    hooks.languages.tap(NAME, (registry) => {
      for (const pack of LANGUAGE_PACKS) registry.add(pack);
    });
  },
});
