import { definePlugin } from '@agentgov/core';
import { LANGUAGE_PACKS } from './language-packs.js';
import { walkPython } from './python-walker.js';

export const NAME = 'language-python';

export { LANGUAGE_PACKS, walkPython };

export default definePlugin({
  name: NAME,
  apply(hooks) {
    hooks.languages.tap(NAME, (registry) => {
      for (const pack of LANGUAGE_PACKS) registry.add(pack);
    });
  },
});
