import { expect } from 'chai';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeTempDir } from '@agentgov/core/testing';
import { discoverFiles } from '../../src/index/discovery.js';
import { LANGUAGES } from './fixture-repos.js';

describe('server.index.exclude: the one glob dialect', () => {
  const root = makeTempDir('exclude-');
  const files = [
    'src/app.ts',
    'src/a/gen/x.ts',
    'src/b/gen/y.ts',
    'src/c/gen/z.ts',
    'src/[literal].ts',
    'src/p.ts',
    'src/q.ts',
    'vendor/lib.ts',
    'vendor/ours/keep.ts',
    'node_modules/dep/index.ts',
    'pkg/node_modules/dep/index.ts',
  ];
  before(() => {
    for (const file of files) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), 'export const x = 1;\n');
    }
  });

  const indexed = async (exclude: string[]) =>
    (await discoverFiles(root, LANGUAGES, { exclude })).candidates.map((c) => c.path).sort();

  it('braces, classes and `!` now match (the old exclude silently matched none of them)', async () => {
    expect(await indexed(['src/{a,b}/**', 'src/[pq].ts', 'vendor/', '!vendor/ours/**'])).to.deep.equal([
      'src/[literal].ts',
      'src/app.ts',
      'src/c/gen/z.ts',
      'vendor/ours/keep.ts',
    ]);
  });

  it('node_modules stays out whatever the list re-includes', async () => {
    const paths = await indexed(['!node_modules/**', '!**/node_modules/**']);
    expect(paths.filter((p) => p.includes('node_modules'))).to.deep.equal([]);
    expect(paths).to.have.length(9);
  });

  it('an exclude that cannot be compiled fails instead of matching nothing', async () => {
    let error: unknown;
    await discoverFiles(root, LANGUAGES, { exclude: ['src/[ab'] }).catch((e: unknown) => (error = e));
    expect(String(error)).to.match(/invalid glob "src\/\[ab"/);
  });
});
