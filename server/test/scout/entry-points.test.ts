import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { expect } from 'chai';
import { findEntryPoints, sourceOf } from '../../src/scout/entry-points.js';

describe('scout/entry-points', () => {
  it('finds package.json bin/main/exports (mapped to their sources), console scripts, __main__ modules and main guards, one entry per file', () => {
    const root = makeTempDir('agentgov-entry-');
    const files = {
      'package.json': JSON.stringify({
        name: 'fx',
        bin: { fx: './dist/cli.js' },
        main: 'dist/index.js',
        exports: {
          '.': { types: './dist/index.d.ts', import: './dist/index.js' },
          './util': './src/util.ts',
          './*': './dist/*.js',
        },
      }),
      'src/cli.ts': 'export {}',
      'src/index.ts': 'export {}',
      'src/util.ts': 'export {}',
      'pyproject.toml':
        '[project]\nname = "fxpy"\n[project.scripts]\nfxpy = "pkg.tool:main"\nghost = "missing.mod:run"\n',
      'pkg/__init__.py': '',
      'pkg/__main__.py': 'print(1)\n',
      'pkg/tool.py': 'def main():\n    pass\n\nif __name__ == "__main__":\n    main()\n',
      'pkg/quiet.py': '# if __name__ == "__main__": is only mentioned here\n',
    };
    writeTree(root, files);
    const indexed = Object.keys(files).filter((p) => /\.(ts|py)$/.test(p));
    const entries = findEntryPoints({ root, files: indexed });
    expect(entries.map((e) => [e.kind, e.name, e.path, e.source ?? null, e.indexed])).to.deep.equal([
      ['bin', 'fx', 'dist/cli.js', 'src/cli.ts', false],
      ['main', null, 'dist/index.js', 'src/index.ts', false],
      ['exports', './util', 'src/util.ts', null, true],
      ['console-script', 'fxpy', 'pkg/tool.py', null, true],
      ['python-main-module', 'pkg', 'pkg/__main__.py', null, true],
      ['console-script', 'ghost', 'missing.mod', null, false],
    ]);
    expect(entries.find((e) => e.path === 'dist/index.js')?.also).to.deep.equal([{ kind: 'exports', name: '.' }]);
    expect(entries.find((e) => e.path === 'pkg/tool.py')?.also).to.deep.equal([
      { kind: 'python-main-guard', name: null },
    ]);
  });

  it('names a __main__ module as it is imported: `flask`, not `src.flask`, in a src/ layout', () => {
    const root = makeTempDir('agentgov-entry-src-');
    const files = {
      'src/flask/__init__.py': '',
      'src/flask/__main__.py': 'main()\n',
      'src/flask/sub/__init__.py': '',
      'src/flask/sub/__main__.py': 'x()\n',
      'tools/__main__.py': 'y()\n',
    };
    writeTree(root, files);
    const names = findEntryPoints({ root, files: Object.keys(files) }).map((e) => [e.path, e.name]);
    expect(names).to.deep.equal([
      ['src/flask/__main__.py', 'flask'],
      ['src/flask/sub/__main__.py', 'flask.sub'],
      ['tools/__main__.py', 'tools'],
    ]);
  });

  it('maps build outputs back to sources only when the source is indexed', () => {
    const indexed = new Set(['cli/src/main.ts', 'src/index.tsx', 'lib/x.mts']);
    expect(sourceOf('cli/dist/src/main.js', indexed)).to.equal('cli/src/main.ts');
    expect(sourceOf('dist/index.js', indexed)).to.equal('src/index.tsx');
    expect(sourceOf('dist/other.js', indexed)).to.equal(undefined);
    expect(sourceOf('src/index.js', indexed)).to.equal(undefined);
  });
});
