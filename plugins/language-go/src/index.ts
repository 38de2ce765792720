import { definePlugin } from '@agentgov/core';
import { goEntryPoint, goModules, GoModules, isGoTestFile, modulePathOf } from './go-modules.js';
import { defaultPackageName, walkGo } from './go-walker.js';
import { GoRefactorEngine } from './go-refactor-engine.js';
import { LANGUAGE_PACKS } from './language-packs.js';

export const NAME = 'language-go';

export { GoRefactorEngine };
export { defaultPackageName, goEntryPoint, goModules, GoModules, isGoTestFile, LANGUAGE_PACKS, modulePathOf, walkGo };

export default definePlugin({
  name: NAME,
  apply(hooks) {
    hooks.languages.tap(NAME, (registry) => {
      // attached here, not in language-packs.js, which index worker threads import
      const refactor = new GoRefactorEngine();
      for (const pack of LANGUAGE_PACKS) registry.add({ ...pack, refactor });
    });
  },
});
