import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Flat config files, in ESLint's own lookup order. */
export const FLAT_CONFIG_FILES = [
  'eslint.config.js',
  'eslint.config.mjs',
  'eslint.config.cjs',
  'eslint.config.ts',
  'eslint.config.mts',
  'eslint.config.cts',
];
/** Legacy (eslintrc) config files. */
export const LEGACY_CONFIG_FILES = [
  '.eslintrc.js',
  '.eslintrc.cjs',
  '.eslintrc.yaml',
  '.eslintrc.yml',
  '.eslintrc.json',
  '.eslintrc',
];

/** The ESLint configuration a repository has at its root: which file and which format. */
export interface EslintConfigFile {
  file: string;
  format: 'flat' | 'legacy';
}

function hasPackageJsonConfig(root: string): boolean {
  const file = join(root, 'package.json');
  if (!existsSync(file)) return false;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { eslintConfig?: unknown }).eslintConfig !== undefined;
  } catch {
    return false;
  }
}

/** The repository's ESLint config, flat first (what ESLint 9 prefers), or undefined when it has none. */
export function findEslintConfig(root: string): EslintConfigFile | undefined {
  const flat = FLAT_CONFIG_FILES.find((f) => existsSync(join(root, f)));
  if (flat) return { file: flat, format: 'flat' };
  const legacy = LEGACY_CONFIG_FILES.find((f) => existsSync(join(root, f)));
  if (legacy) return { file: legacy, format: 'legacy' };
  if (hasPackageJsonConfig(root)) return { file: 'package.json#eslintConfig', format: 'legacy' };
  return undefined;
}
