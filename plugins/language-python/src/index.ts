import { definePlugin } from '@agentgov/core';
import { LANGUAGE_PACKS } from './language-packs.js';
import { walkPython } from './python-walker.js';
import { PythonRefactorEngine } from './refactor/python-refactor-engine.js';

export const NAME = 'language-python';

export { LANGUAGE_PACKS, PythonRefactorEngine, walkPython };

export default definePlugin({
  name: NAME,
  apply(hooks) {
    hooks.languages.tap(NAME, (registry) => {
      // attached here, not in language-packs.js, which index worker threads import
      const refactor = new PythonRefactorEngine();
      for (const pack of LANGUAGE_PACKS) registry.add({ ...pack, refactor });
    });
  },
});
