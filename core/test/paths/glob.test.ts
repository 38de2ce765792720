import { expect } from 'chai';
import {
  escapeRegExp,
  GlobError,
  globRegExp,
  globsRegExp,
  pathGlobFilter,
  pathGlobProblem,
  toPosix,
} from '../../src/paths/glob.js';

describe('the one glob dialect (picomatch)', () => {
  const matches = (patterns: string[], paths: string[]) => {
    const filter = pathGlobFilter(patterns);
    return paths.filter((path) => filter(path));
  };

  it('path globs take braces, classes and `**`, which the old exclude never matched', () => {
    expect(
      matches(
        ['{a,b}/gen/**', 'src/[xy].ts', '*.{min.js,map}'],
        ['a/gen/q.ts', 'b/gen/z/q.ts', 'c/gen/q.ts', 'src/x.ts', 'src/z.ts', 'w/app.min.js', 'app.js.map', 'app.js'],
      ),
    ).to.deep.equal(['a/gen/q.ts', 'b/gen/z/q.ts', 'src/x.ts', 'w/app.min.js', 'app.js.map']);
  });

  it('matches as .gitignore does: a name at any depth, a rooted path, a directory and all below it', () => {
    expect(
      matches(
        ['dist/', 'fixtures', '/only-root.ts', 'lib/gen'],
        [
          'dist/a.js',
          'pkg/dist/a.js',
          'distx/a.js',
          'test/fixtures/x/y.ts',
          'only-root.ts',
          'sub/only-root.ts',
          'lib/gen/deep/z.ts',
          'pkg/lib/gen/z.ts',
          '.hidden/fixtures',
        ],
      ),
    ).to.deep.equal([
      'dist/a.js',
      'pkg/dist/a.js',
      'test/fixtures/x/y.ts',
      'only-root.ts',
      'lib/gen/deep/z.ts',
      '.hidden/fixtures',
    ]);
  });

  it('`!pattern` re-includes what an earlier pattern left out; the last applicable pattern decides', () => {
    expect(
      matches(
        ['vendor/**', '!vendor/ours/**', 'vendor/ours/big.js'],
        ['vendor/a.js', 'vendor/ours/b.js', 'vendor/ours/big.js', 'src/c.js'],
      ),
    ).to.deep.equal(['vendor/a.js', 'vendor/ours/big.js']);
    expect(matches([], ['a'])).to.deep.equal([]);
  });

  it('`*` matches names starting with a dot, and stays within a segment', () => {
    expect(globRegExp('src/*').test('src/.env')).to.equal(true);
    expect(globRegExp('src/*').test('src/a/b')).to.equal(false);
    expect(globRegExp('src/**').test('src/a/.b/c')).to.equal(true);
  });

  it('program globs: whole names, `*` crossing `/`, case as given to them', () => {
    const programs = globsRegExp(['python*', '$*', 'mkfs.*', 'ba[sz]h'], { crossSlash: true });
    expect(['python3', '$home/bin/x', 'mkfs.ext4', 'bash', 'bazh'].every((p) => programs.test(p))).to.equal(true);
    expect(['mypython', 'mkfs', 'bush'].some((p) => programs.test(p))).to.equal(false);
    expect(globRegExp('Node*', { nocase: true }).test('NODEJS')).to.equal(true);
  });

  it('a pattern that cannot be compiled is a GlobError naming it, never a pattern matching nothing', () => {
    for (const pattern of ['src/[ab', '{a,b', 'a(b', 'trailing\\', '', '[z-a]'])
      expect(() => globRegExp(pattern), pattern).to.throw(GlobError, /invalid glob/);
    expect(pathGlobProblem('src/[ab')).to.match(/Missing closing: "\]"/);
    expect(pathGlobProblem('!{a,b')).to.match(/Missing closing: "\}"/);
    expect(pathGlobProblem('/')).to.equal('the pattern names no path');
    expect(pathGlobProblem('!vendor/ours/**')).to.equal(undefined);
    expect(() => pathGlobFilter(['ok/**', 'bad['])).to.throw(GlobError, /"bad\["/);
  });

  it('toPosix and escapeRegExp: one each', () => {
    expect(toPosix('a/b/c')).to.equal('a/b/c');
    const text = 'a.b*c+(d)[e]{f}|g^$\\h?';
    expect(new RegExp(`^${escapeRegExp(text)}$`).test(text)).to.equal(true);
  });
});
