import { scanEntryPoints } from '@agentgov/core/contracts';
import type { LanguagePack, PackEntryPoint, PackModulesContext } from '@agentgov/core/contracts';
import type Parser from 'tree-sitter';
import Java from 'tree-sitter-java';
import { javaModules } from './java-modules.js';
import { walkJava } from './java-walker.js';

/** Maven/Gradle test roots, and `*Test.java` / `*Tests.java` / `*IT.java` (JUnit's conventions) anywhere. */
export const JAVA_TEST_PATH =
  /(^|\/)src\/(test|testFixtures|integrationTest)\/|(^|\/)[A-Z][\w$]*(Test|Tests|IT)\.java$/;
/** `public static void main(String[] args)` (either modifier order, `final`, varargs). */
export const JAVA_MAIN = new RegExp(
  String.raw`\b(?:public\s+static|static\s+public)\s+(?:final\s+)?void\s+main\s*\(\s*(?:final\s+)?(?:ja` +
    String.raw`va\.lang\.)?String\s*(?:\[\s*\]|\.\.\.)`,
);

/** Every Java file of the repository that declares `public static void main`: a program entry point. */
function javaMains(context: PackModulesContext): PackEntryPoint[] {
  return scanEntryPoints(context, '.java', (_path, text) => (JAVA_MAIN.test(text) ? null : false));
}

export const LANGUAGE_PACKS: readonly LanguagePack[] = Object.freeze([
  {
    name: 'java',
    extensions: ['.java'],
    grammar: Java,
    moduleSystem: 'pack',
    modules: javaModules,
    testPath: JAVA_TEST_PATH,
    entryPoints: javaMains,
    extract: (tree: unknown, source: string) => walkJava(tree as Parser.Tree, source),
    flatTree: true,
    // Index worker threads import this module (not the plugin entry, which loads the whole core)
    // and pick the pack by name from LANGUAGE_PACKS.
    workerModule: { url: import.meta.url, exportName: 'LANGUAGE_PACKS' },
  },
]);
