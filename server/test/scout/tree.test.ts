import { expect } from 'chai';
import { compressTree, FILES_PER_DIR } from '../../src/scout/tree.js';

const file = (path: string, lines = 10) => ({ path, lines });

describe('scout/tree', () => {
  it('shows a small tree whole, largest directories first, with no zoom targets', () => {
    const tree = compressTree(
      [file('README.md', 5), file('src/a.ts', 30), file('src/b.ts'), file('test/a.test.ts')],
      '',
      80,
    );
    expect(tree.lines).to.deep.equal([
      './ (4 files)',
      '  src/ (2 files)',
      '    a.ts (30 lines)',
      '    b.ts (10 lines)',
      '  test/ (1 files)',
      '    a.test.ts (10 lines)',
      '  README.md (5 lines)',
    ]);
    expect(tree.zoomTargets).to.deep.equal([]);
  });

  it('lists at most FILES_PER_DIR files per directory, then a count', () => {
    const files = Array.from({ length: FILES_PER_DIR + 3 }, (_, i) => file(`f${i}.ts`, i));
    const tree = compressTree(files, '', 80);
    expect(tree.lines).to.have.length(1 + FILES_PER_DIR + 1);
    expect(tree.lines.at(-1)).to.equal('  … 3 more files');
  });

  it('compresses a large tree to the budget; every collapsed directory is a zoom target with its counts', () => {
    const files: { path: string; lines: number }[] = [];
    for (const pkg of ['core', 'server', 'cli', 'web'])
      for (const area of ['a', 'b', 'c', 'd', 'e'])
        for (let i = 0; i < 4; i++) files.push(file(`${pkg}/src/${area}/f${i}.ts`, 7));
    const budget = 20;
    const tree = compressTree(files, '', budget);
    // + the root line; a directory holding only one directory opens for one line
    expect(tree.lines.length).to.be.at.most(budget + 1 + 4);
    expect(tree.zoomTargets.length).to.be.greaterThan(0);
    const collapsed = tree.lines.filter((l) => l.includes('/ …'));
    expect(collapsed).to.have.length(tree.zoomTargets.length);
    for (const target of tree.zoomTargets) {
      const inside = files.filter((f) => f.path.startsWith(`${target.path}/`));
      expect(target.files).to.equal(inside.length);
      expect(target.lines).to.equal(inside.length * 7);
    }
    const shownFiles = tree.lines.filter((l) => l.endsWith(' lines)') && !l.includes('/ …')).length;
    expect(shownFiles + tree.zoomTargets.reduce((n, t) => n + t.files, 0)).to.equal(files.length);
  });

  it('roots the tree at a scope', () => {
    const tree = compressTree([file('pkg/src/a.ts'), file('pkg/src/b.ts')], 'pkg/src', 80);
    expect(tree.lines).to.deep.equal(['pkg/src/ (2 files)', '  a.ts (10 lines)', '  b.ts (10 lines)']);
  });
});
