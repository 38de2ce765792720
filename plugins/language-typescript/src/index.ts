import { definePlugin } from '@agentgov/core';
import { walkEcmascript } from './ecmascript-walker.js';
import { LANGUAGE_PACKS } from './language-packs.js';
import { TypeScriptRefactorEngine } from './refactor/typescript-refactor-engine.js';

export const NAME = 'language-typescript';

export { LANGUAGE_PACKS, TypeScriptRefactorEngine, walkEcmascript };

export default definePlugin({
  name: NAME,
  apply(hooks) {
    hooks.languages.tap(NAME, (registry) => {
      // one language service engine for the three packs; index workers never load it (they import language-packs.js)
      const refactor = new TypeScriptRefactorEngine();
      for (const pack of LANGUAGE_PACKS) registry.add({ ...pack, refactor });
    });
  },
});
