import { expect } from 'chai';
import { PythonModuleResolver } from '../../../src/index/resolution/python-modules.js';

describe('python module resolution across many source roots', () => {
  // Two projects side by side (a monorepo): each has its own source root holding a package `pkg`.
  const files = new Set([
    'one/pkg/__init__.py',
    'one/pkg/util.py',
    'one/pkg/core.py',
    'one/tool.py',
    'two/src/pkg/__init__.py',
    'two/src/pkg/util.py',
    'two/src/pkg/only_two.py',
    'two/src/pkg/extra.py',
    'one/pkg/typed.pyi',
    'two/src/main.py',
    'two/docs/conf.py',
    'loose/notes/util.py',
  ]);
  const resolver = new PythonModuleResolver(files);

  it("takes the importing file's own root first", () => {
    expect(resolver.resolve('two/src/main.py', 'pkg.util')).to.equal('two/src/pkg/util.py');
    expect(resolver.resolve('one/tool.py', 'pkg.util')).to.equal('one/pkg/util.py');
    expect(resolver.resolve('one/pkg/core.py', 'pkg')).to.equal('one/pkg/__init__.py');
  });

  it('then the other roots, the one holding the most modules first', () => {
    // `one` holds four modules of its root, `two/src` five: from elsewhere `pkg.util` is two's.
    expect(resolver.resolve('two/docs/conf.py', 'pkg.util')).to.equal('two/src/pkg/util.py');
    expect(resolver.resolve('one/tool.py', 'pkg.only_two')).to.equal('two/src/pkg/only_two.py');
  });

  it('finds stubs and leaves what no root holds unresolved', () => {
    expect(resolver.resolve('two/src/main.py', 'pkg.typed')).to.equal('one/pkg/typed.pyi');
    expect(resolver.resolve('one/tool.py', 'pkg.missing')).to.equal(null);
    expect(resolver.resolve('one/tool.py', 'numpy')).to.equal(null);
    // `notes/util` sits below `loose`, which is not a source root of any module it holds as `notes.util`.
    expect(resolver.resolve('one/tool.py', 'notes.util')).to.equal(null);
  });

  it('resolves relative imports against the importing package', () => {
    expect(resolver.resolve('one/pkg/core.py', '.util')).to.equal('one/pkg/util.py');
    expect(resolver.resolve('two/src/pkg/util.py', '.')).to.equal('two/src/pkg/__init__.py');
  });
});
