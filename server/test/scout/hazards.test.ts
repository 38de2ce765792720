import { expect } from 'chai';
import { structuralWarning, vendoredTrees } from '../../src/scout/hazards.js';

describe('scout/hazards', () => {
  it('has no warning for small cycles and ordinary sources', () => {
    expect(
      structuralWarning(
        [{ members: ['a', 'b'], chain: ['a', 'b', 'a'] }],
        ['src/a.ts', 'src/b.ts', 'dist-notes/x.ts', 'pkg/external/a.py', 'pkg/external/b.py', 'pkg/external/c.py'],
      ),
    ).to.equal(undefined);
  });

  it('warns about an import cycle of five or more files, with its chain', () => {
    const members = ['a', 'b', 'c', 'd', 'e'];
    const warning = structuralWarning([{ members, chain: [...members, 'a'] }], []);
    expect(warning).to.contain('an import cycle of 5+ files (largest: 5 files, a → b → c → d → e → a)');
  });

  it('finds vendored or generated trees among the sources, and minified bundles', () => {
    const paths = [
      'src/vendor/x/a.js',
      'src/vendor/x/b.js',
      'src/vendor/c.js',
      'src/generated/one.ts',
      'src/app.ts',
      'web/lib.min.js',
    ];
    expect(vendoredTrees(paths)).to.deep.equal([
      { path: 'src/vendor', files: 3 },
      { path: 'web/lib.min.js', files: 1 },
    ]);
    expect(structuralWarning([], paths)).to.contain(
      'vendored or generated code inside the sources: src/vendor (3 files), web/lib.min.js (1 files)',
    );
  });
});
