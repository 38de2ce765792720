import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Briefing } from '../../src/scout/briefing.js';
import { removeRepos } from '../index/fixture-repos.js';
import { errorCode, SCOUT_REPO, serveFixture, structured, type ToolCaller } from './scout-fixture.js';

describe('recon_scout over a fixture repository', () => {
  let call: ToolCaller;
  let close: () => Promise<void>;
  let root: string;
  before(async () => ({ call, close, root } = await serveFixture(SCOUT_REPO)));
  after(async () => {
    await close();
    removeRepos();
  });

  it('briefs the whole repository with every field', async () => {
    const result = await call('recon_scout', {});
    const b = structured<Briefing>(result);
    expect(b.scope).to.equal(null);
    expect(b.context).to.match(
      /^The repository holds 12 indexed typescript \(\d+%\) and python \(\d+%\) files, mostly in src\/, pkg\/; the most-imported file is src\/a\/util\.ts; 2 import cycles\.$/,
    );
    expect(b).to.not.have.property('warning');
    expect(b.tree.split('\n')[0]).to.equal('./ (12 files)');
    expect(b.tree).to.contain('src/ (9 files)');
    expect(b.zoom_targets).to.deep.equal([]);
    expect(b.languages.map((l) => [l.language, l.files])).to.deep.equal([
      ['typescript', 9],
      ['python', 3],
    ]);
    expect(b.entry_points.items.map((e) => [e.kind, e.name, e.source ?? e.path])).to.deep.equal([
      ['bin', 'fx', 'src/cli.ts'],
      ['main', null, 'src/index.ts'],
      ['console-script', 'fxpy', 'pkg/tool.py'],
      ['python-main-module', 'pkg', 'pkg/__main__.py'],
    ]);
    expect(b.entry_points.items.find((e) => e.path === 'pkg/tool.py')?.also).to.deep.equal([
      { kind: 'python-main-guard', name: null },
    ]);
    expect(b.top_files[0]).to.deep.include({ importers: 3 });
    expect(['src/a/util.ts', 'src/b/butil.ts']).to.include(b.top_files[0]!.path);
    expect(b.top_symbols.map((s) => s.name)).to.include.members(['one', 'ping', 'A_UTIL']);
    expect(b.cycles).to.deep.include({ total: 2, shown: 2 });
    expect(b.cycles.items[1]).to.deep.equal({
      size: 2,
      chain: ['src/b/x.ts', 'src/b/y.ts', 'src/b/x.ts'],
      files: ['src/b/x.ts', 'src/b/y.ts'],
      files_shown: 2,
    });
    expect(b.communities.total).to.be.at.least(2);
    expect(b.communities.items.map((c) => c.label)).to.include.members(['src/a', 'src/b']);
    expect(b.coverage).to.equal(null);
    expect(b.coverage_reason).to.contain('no coverage data');
    expect(b.lint).to.equal(null);
    expect(b.lint_reason).to.contain('no lint results');
    expect(b.index).to.deep.include({ files: 12 });
    expect(result.content[0])
      .to.have.property('text')
      .that.contains('cycles:\n  3 files: src/a/one.ts → src/a/two.ts → src/a/three.ts → src/a/one.ts');
  });

  it('applies the truncate limits and max_* overrides', async () => {
    const limited = structured<Briefing>(
      await call('recon_scout', { max_cycles: 1, max_communities: 1, max_members_per_community: 2 }),
    );
    expect(limited.cycles).to.deep.include({ total: 2, shown: 1 });
    expect(limited.communities.shown).to.equal(1);
    expect(limited.communities.items[0]!.members).to.have.length(2);
    expect(limited.communities.items[0]!.members_shown).to.equal(2);
    const full = structured<Briefing>(await call('recon_scout', { truncate: false }));
    expect(full.communities.shown).to.equal(full.communities.total);
    expect(full.communities.items.every((c) => c.members.length === c.size)).to.equal(true);
  });

  it('zooms into a scope', async () => {
    const b = structured<Briefing>(await call('recon_scout', { scope: 'src/a' }));
    expect(b.scope).to.equal('src/a');
    expect(b.tree.split('\n').map((l) => l.replace(/ \(\d+ lines\)$/, ''))).to.deep.equal([
      'src/a/ (4 files)',
      '  one.ts',
      '  three.ts',
      '  two.ts',
      '  util.ts',
    ]);
    expect(b.cycles.items.map((c) => c.files)).to.deep.equal([['src/a/one.ts', 'src/a/three.ts', 'src/a/two.ts']]);
    expect(b.languages.map((l) => l.language)).to.deep.equal(['typescript']);
    expect(b.context).to.match(/^src\/a\/ holds 4 indexed/);
  });

  it('reads coverage when a report exists', async () => {
    writeFileSync(join(root, 'lcov.info'), 'SF:src/a/one.ts\nLF:4\nLH:3\nend_of_record\n');
    const b = structured<Briefing>(await call('recon_scout', {}));
    expect(b.coverage).to.deep.include({ line_rate: 0.75, lines_total: 4, source: 'lcov.info' });
    expect(b).to.not.have.property('coverage_reason');
  });

  const refused: [string, Record<string, unknown>, string][] = [
    ['a scope outside the repository', { scope: '../elsewhere' }, 'E_PATH_OUTSIDE_REPO'],
    ['an absolute scope outside', { scope: '/etc' }, 'E_PATH_OUTSIDE_REPO'],
    ['a scope with no files', { scope: 'nothing/here' }, 'E_NOT_FOUND'],
    ['a wrong type', { truncate: 'yes' }, 'E_INVALID_ARGUMENT'],
    ['a negative limit', { max_cycles: -1 }, 'E_INVALID_ARGUMENT'],
    ['an unknown field', { scope: 'src', depth: 3 }, 'E_INVALID_ARGUMENT'],
  ];
  for (const [what, args, code] of refused) {
    it(`answers ${code} for ${what}, and keeps serving`, async () => {
      const result = await call('recon_scout', args);
      expect(errorCode(result)).to.equal(code);
      // The error names paths relative to the repository, never where it lives on this machine.
      expect(JSON.stringify(result)).to.not.contain(realpathSync(root));
      expect((await call('recon_scout', { scope: 'pkg' })).isError).to.not.equal(true);
    });
  }
});

describe('recon_scout warning', () => {
  after(() => removeRepos());

  it('warns only about a real hazard: a large import cycle and a vendored tree inside the sources', async () => {
    const ring: Record<string, string> = {};
    for (let i = 0; i < 5; i++)
      ring[`src/ring/r${i}.ts`] =
        `import { r${(i + 1) % 5} } from './r${(i + 1) % 5}';\nexport const r${i} = () => r${(i + 1) % 5};\n`;
    for (let i = 0; i < 3; i++) ring[`src/vendor/lib${i}.js`] = `module.exports = ${i};\n`;
    const served = await serveFixture(ring);
    try {
      const b = structured<Briefing>(await served.call('recon_scout', {}));
      expect(b.warning).to.contain(
        'an import cycle of 5+ files (largest: 5 files, src/ring/r0.ts → src/ring/r1.ts → src/ring/r2.ts → src/ring/r3.ts → src/ring/r4.ts → src/ring/r0.ts)',
      );
      expect(b.warning).to.contain('vendored or generated code inside the sources: src/vendor (3 files)');
    } finally {
      await served.close();
    }
  });
});
