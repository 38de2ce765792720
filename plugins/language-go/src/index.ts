import { definePlugin } from '@agentgov/core';
import { goEntryPoint, goModules, GoModules, isGoTestFile, modulePathOf } from './go-modules.js';
import { defaultPackageName, walkGo } from './go-walker.js';
import { LANGUAGE_PACKS } from './language-packs.js';

export const NAME = 'language-go';

export { defaultPackageName, goEntryPoint, goModules, GoModules, isGoTestFile, LANGUAGE_PACKS, modulePathOf, walkGo };

export default definePlugin({
  name: NAME,
  apply(hooks) {
    hooks.languages.tap(NAME, (registry) => {
      for (const pack of LANGUAGE_PACKS) registry.add({ ...pack });
    });
  },
});
