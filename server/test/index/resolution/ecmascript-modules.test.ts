import { expect } from 'chai';
import { EcmascriptModuleResolver } from '../../../src/index/resolution/ecmascript-modules.js';
import { gitRepo, removeRepos } from '../fixture-repos.js';

/** A monorepo: packages resolved by name through `exports` (subpaths, conditions), `main`, and built paths mapped to src. */
const WORKSPACE: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'root', private: true }),
  'packages/core/package.json': JSON.stringify({
    name: '@acme/core',
    exports: {
      '.': { types: './dist/index.d.ts', import: './dist/index.mjs', require: './dist/index.cjs' },
      './utils': './src/utils/index.ts',
      './package.json': './package.json',
    },
  }),
  'packages/core/src/index.ts': 'export const core = 1;\n',
  'packages/core/src/utils/index.ts': 'export const util = 1;\n',
  'packages/legacy/package.json': JSON.stringify({ name: 'legacy-lib', main: 'lib/main.js' }),
  'packages/legacy/lib/main.js': 'module.exports = {};\n',
  'packages/legacy/lib/extra.js': 'module.exports = {};\n',
  'packages/plain/package.json': JSON.stringify({ name: 'plain' }),
  'packages/plain/src/index.ts': 'export {};\n',
  'app/tsconfig.json': '{ "extends": "../tsconfig.base.json" }',
  'tsconfig.base.json':
    '{ "compilerOptions": { "baseUrl": ".", "paths": { "~/*": ["app/src/*"], "exact": ["packages/plain/src/index.ts"] } } }',
  'app/src/main.ts': 'export {};\n',
  'app/src/view.tsx': 'export {};\n',
  'app/src/esm.ts': 'export {};\n',
};

describe('ECMAScript module resolution', () => {
  let resolver: EcmascriptModuleResolver;
  before(() => {
    const root = gitRepo(WORKSPACE);
    const files = new Set(Object.keys(WORKSPACE).filter((path) => /\.(ts|tsx|js)$/.test(path)));
    const configs = Object.keys(WORKSPACE).filter((path) => /(package|tsconfig)\.json$/.test(path));
    resolver = new EcmascriptModuleResolver(root, files, configs);
  });
  after(() => removeRepos());

  const cases: Array<[string, string, string | null]> = [
    ['app/src/main.ts', '@acme/core', 'packages/core/src/index.ts'],
    ['app/src/main.ts', '@acme/core/utils', 'packages/core/src/utils/index.ts'],
    ['app/src/main.ts', 'legacy-lib', 'packages/legacy/lib/main.js'],
    ['app/src/main.ts', 'legacy-lib/lib/extra', 'packages/legacy/lib/extra.js'],
    ['app/src/main.ts', 'plain', 'packages/plain/src/index.ts'],
    ['app/src/main.ts', '~/view', 'app/src/view.tsx'],
    ['app/src/main.ts', 'exact', 'packages/plain/src/index.ts'],
    ['app/src/main.ts', './esm.js', 'app/src/esm.ts'],
    ['app/src/main.ts', '../../packages/core/src', 'packages/core/src/index.ts'],
    ['app/src/main.ts', 'react', null],
    ['app/src/main.ts', '../../../outside', null],
  ];
  for (const [from, specifier, expected] of cases) {
    it(`${specifier} from ${from} → ${expected}`, () => {
      expect(resolver.resolve(from, specifier)).to.equal(expected);
    });
  }
});
