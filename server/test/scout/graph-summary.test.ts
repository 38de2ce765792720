import { expect } from 'chai';
import { communityLabel } from '../../src/scout/graph-summary.js';

describe('scout/graph-summary communityLabel', () => {
  const cases: [string, string[], string][] = [
    ['all members in one folder', ['src/recon/a.ts', 'src/recon/b.ts'], 'src/recon'],
    ['the deepest folder holding every member', ['src/recon/a.ts', 'src/recon/x/b.ts'], 'src/recon'],
    [
      'a dominant folder with strays says how many',
      ['src/recon/a.ts', 'src/recon/b.ts', 'src/recon/c.ts', 'lib/d.ts'],
      'src/recon (3 of 4)',
    ],
    ['exactly half is not a majority', ['src/a/x.ts', 'src/a/y.ts', 'src/b/z.ts', 'src/b/w.ts'], 'src'],
    ['no folder holds a majority', ['a/x.ts', 'b/y.ts', 'c/z.ts'], '(repository root)'],
    ['root files', ['x.ts', 'y.ts'], '(repository root)'],
    ['nothing', [], '(repository root)'],
  ];
  for (const [name, paths, label] of cases) {
    it(`${name}: ${label}`, () => {
      expect(communityLabel(paths)).to.equal(label);
    });
  }
});
