import { definePlugin } from '@agentgov/core';
import { javaModules, JavaModules } from './java-modules.js';
import { walkJava } from './java-walker.js';
import { JAVA_MAIN, JAVA_TEST_PATH, LANGUAGE_PACKS } from './language-packs.js';
import { JavaRefactorEngine } from './refactor/java-refactor-engine.js';

export const NAME = 'language-java';

export { JAVA_MAIN, JAVA_TEST_PATH, JavaModules, javaModules, JavaRefactorEngine, LANGUAGE_PACKS, walkJava };

export default definePlugin({
  name: NAME,
  apply(hooks) {
    hooks.languages.tap(NAME, (registry) => {
      // attached here, not in language-packs.js, which index worker threads import
      const refactor = new JavaRefactorEngine();
      for (const pack of LANGUAGE_PACKS) registry.add({ ...pack, refactor });
    });
  },
});
