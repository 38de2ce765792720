import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import type { ESLint } from 'eslint';

type EslintClass = typeof ESLint;

interface EslintModule {
  ESLint: EslintClass;
  /** ESLint ≥ 8.57: the class for flat or legacy config. */
  loadESLint?: (options: { useFlatConfig: boolean }) => Promise<EslintClass>;
}

/** An ESLint package ready to use: its class for the repository's config format, version, and where it came from. */
export interface LoadedEslint {
  ESLint: EslintClass;
  version: string;
  /** `project <dir>` when resolved from the repository (its own ESLint), `agentgov` for the fallback. */
  origin: string;
  packageDir: string;
}

const OWN_REQUIRE = createRequire(import.meta.url);

/**
 * The `eslint` package resolved from the repository first (its own ESLint), else agentgov's: its entry and its
 * package.json.
 */
function resolveEslint(root: string): { entry: string; packageJson: string; own: boolean } {
  try {
    const projectRequire = createRequire(join(root, 'package.json'));
    return {
      entry: projectRequire.resolve('eslint'),
      packageJson: projectRequire.resolve('eslint/package.json'),
      own: false,
    };
  } catch {
    return { entry: OWN_REQUIRE.resolve('eslint'), packageJson: OWN_REQUIRE.resolve('eslint/package.json'), own: true };
  }
}

/** Loads ESLint for `root` (its own package when it has one) with the class matching its config format. */
export async function loadEslint(root: string, format: 'flat' | 'legacy'): Promise<LoadedEslint> {
  const { entry, packageJson, own } = resolveEslint(root);
  const module = (await import(pathToFileURL(entry).href)) as EslintModule & { default?: EslintModule };
  const api: EslintModule = module.ESLint ? module : (module.default as EslintModule);
  const ESLintClass = api.loadESLint ? await api.loadESLint({ useFlatConfig: format === 'flat' }) : api.ESLint;
  const packageDir = dirname(packageJson);
  const version = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
  return { ESLint: ESLintClass, version, origin: own ? 'agentgov' : `project ${packageDir}`, packageDir };
}
