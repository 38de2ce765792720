// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'bench/.work/**', '.venv-test/**', '**/fixtures/**', '**/.venv/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setImmediate: 'readonly', Buffer: 'readonly', URL: 'readonly', performance: 'readonly', fetch: 'readonly', AbortController: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', structuredClone: 'readonly', queueMicrotask: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
  // The bin runs as CommonJS (cli/bin/package.json) and, copied alone, as an ES module: it reads
  // `require` and `__dirname` only after checking that they exist.
  { files: ['cli/bin/**/*.js'], languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __dirname: 'readonly' } } },
);
