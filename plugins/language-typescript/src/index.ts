import { definePlugin } from '@agentgov/core';
import { walkEcmascript } from './ecmascript-walker.js';
import { LANGUAGE_PACKS } from './language-packs.js';

export const NAME = 'language-typescript';

export { LANGUAGE_PACKS, walkEcmascript };

export default definePlugin({
  name: NAME,
  apply(hooks) {
    hooks.languages.tap(NAME, (registry) => {
      for (const pack of LANGUAGE_PACKS) registry.add(pack);
    });
  },
});
