import { definePlugin } from '@agentgov/core';
import { createRuffLinter } from './ruff-linter.js';

export const NAME = 'linter-ruff';

/**
 * Registers the `ruff` linter (used by `checkpoint`) for Python repositories. The repository's own ruff config decides
 * the rules.
 */
export default definePlugin({
  name: NAME,
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(hooks) {
    hooks.linters.tap(NAME, (registry) => registry.add(createRuffLinter()));
  },
});

export { createRuffLinter, CACHE_DIR } from './ruff-linter.js';
export { findRuff, hasPython, PROJECT_VENVS, PYTHON_MARKERS } from './ruff-binary.js';
