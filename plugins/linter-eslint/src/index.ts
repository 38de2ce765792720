import { definePlugin } from '@agentgov/core';
import { createEslintLinter } from './eslint-linter.js';

export const NAME = 'linter-eslint';

/**
 * Registers the `eslint` linter (used by `checkpoint`). It takes no options: the repository's own config decides what
 * is linted.
 */
export default definePlugin({
  name: NAME,
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(hooks) {
    hooks.linters.tap(NAME, (registry) => registry.add(createEslintLinter()));
  },
});

export { createEslintLinter, CACHE_FILE } from './eslint-linter.js';
export { findEslintConfig, FLAT_CONFIG_FILES, LEGACY_CONFIG_FILES } from './eslint-config.js';
