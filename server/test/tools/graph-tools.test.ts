import { expect } from 'chai';
import type { CommunitiesResult } from '../../src/tools/graph-communities.js';
import type { CyclesResult } from '../../src/tools/graph-cycles.js';
import type { GraphMember } from '../../src/tools/graph-level.js';
import { removeRepos } from '../index/fixture-repos.js';
import { errorCode, SCOUT_REPO, serveFixture, structured, type ToolCaller } from './scout-fixture.js';

const names = (members: GraphMember[]) => members.map((m) => (typeof m === 'string' ? m : m.qualified_name)).sort();

describe('graph_cycles and graph_communities over a fixture repository', () => {
  let call: ToolCaller;
  let close: () => Promise<void>;
  let imports: (path: string) => string[];
  before(async () => {
    const served = await serveFixture(SCOUT_REPO);
    ({ call, close } = served);
    imports = (path) => served.index.imports(path).flatMap((edge) => (edge.to_path ? [edge.to_path] : []));
  });
  after(async () => {
    await close();
    removeRepos();
  });

  it('finds exactly the two import cycles, each with a chain that follows real imports', async () => {
    const result = structured<CyclesResult>(await call('graph_cycles', {}));
    expect(result.level).to.equal('file');
    expect(result.graph.nodes).to.equal(12);
    expect(result.total).to.equal(2);
    expect(result.cycles.map((c) => c.members)).to.deep.equal([
      ['src/a/one.ts', 'src/a/three.ts', 'src/a/two.ts'],
      ['src/b/x.ts', 'src/b/y.ts'],
    ]);
    for (const cycle of result.cycles) {
      const chain = cycle.chain as string[];
      expect(chain[0]).to.equal(chain.at(-1));
      for (let i = 0; i + 1 < chain.length; i++)
        expect(imports(chain[i]!), `${chain[i]} imports ${chain[i + 1]}`).to.include(chain[i + 1]);
    }
    expect(result.cycles[0]!.chain).to.deep.equal(['src/a/one.ts', 'src/a/two.ts', 'src/a/three.ts', 'src/a/one.ts']);
  });

  it('finds the call cycles at the definition level', async () => {
    const result = structured<CyclesResult>(await call('graph_cycles', { level: 'def' }));
    expect(result.level).to.equal('def');
    expect(result.cycles.map((c) => names(c.members))).to.deep.equal([
      ['one', 'three', 'two'],
      ['ping', 'pong'],
    ]);
    const first = result.cycles[0]!.members[0]!;
    expect(first).to.have.keys(['def_uid', 'qualified_name', 'kind', 'path']);
  });

  it('partitions every file into communities, keeping each area together, with modularity and resolution', async () => {
    const result = structured<CommunitiesResult>(await call('graph_communities', { level: 'file' }));
    expect(result.graph).to.include({ nodes: 12, resolution: 1 });
    expect(result.graph.modularity).to.be.greaterThan(0.1);
    const all = [
      ...result.communities.flatMap((c) => c.members as string[]),
      ...result.singletons.map((s) => s.path),
    ].sort();
    expect(all).to.have.length(12);
    expect(new Set(all).size).to.equal(12);
    const home = (path: string) => result.communities.find((c) => (c.members as string[]).includes(path))!;
    for (const path of ['src/a/two.ts', 'src/a/three.ts', 'src/a/util.ts'])
      expect(home(path).id).to.equal(home('src/a/one.ts').id);
    for (const path of ['src/b/y.ts', 'src/b/butil.ts']) expect(home(path).id).to.equal(home('src/b/x.ts').id);
    expect(home('src/a/one.ts').id).to.not.equal(home('src/b/x.ts').id);
    expect(home('src/a/one.ts').label).to.equal('src/a');
  });

  it('leads with a summary, in a stable order: largest first, members sorted, the same answer twice', async () => {
    const first = await call('graph_communities', { level: 'def' });
    const again = await call('graph_communities', { level: 'def' });
    expect(JSON.stringify(again.structuredContent)).to.equal(JSON.stringify(first.structuredContent));
    const result = structured<CommunitiesResult>(first);
    expect(Object.keys(result)[0]).to.equal('summary');
    expect(result.summary.communities).to.equal(result.communities.length + result.summary.singletons);
    // communities of one are listed compactly, grouped by file: every definition once, none in `communities`
    const lonely = result.singletons.flatMap((s) => s.defs!.map((d) => ({ ...d, path: s.path })));
    expect(result.summary.singletons).to.equal(lonely.length).and.to.be.greaterThan(0);
    expect(result.graph.communities).to.equal(result.communities.length + lonely.length);
    expect(result.communities.every((c) => c.size > 1)).to.equal(true);
    const listed = [...result.communities.flatMap((c) => c.members as { def_uid: string }[]), ...lonely].map(
      (m) => m.def_uid,
    );
    expect(listed.length).to.equal(result.graph.nodes);
    expect(new Set(listed).size).to.equal(result.graph.nodes);
    expect(result.singletons.map((s) => s.path)).to.deep.equal(
      [...new Set(result.singletons.map((s) => s.path))].sort((a, b) => a.localeCompare(b)),
    );
    expect(result.summary.largest.map((c) => c.size)).to.deep.equal(result.communities.slice(0, 5).map((c) => c.size));
    const sizes = result.communities.map((c) => c.size);
    expect(sizes).to.deep.equal([...sizes].sort((a, b) => b - a));
    expect(result.communities.map((c) => c.id)).to.deep.equal(result.communities.map((_, i) => i));
    for (const c of result.communities) {
      const paths = c.members.map((m) => (typeof m === 'string' ? m : m.path));
      expect(paths).to.deep.equal([...paths].sort((a, b) => a.localeCompare(b)));
    }
    const text = (first.content as { text: string }[])[0]!.text;
    expect(text.split('\n')[1]).to.match(/^largest: 0\. /);
    const lonelyText = text.slice(text.indexOf(`${result.summary.singletons} singletons (one node each), by file:\n`));
    expect(lonelyText.split('\n')[1]).to.equal(
      `${result.singletons[0]!.path}: ${result.singletons[0]!.defs!.map((d) => d.qualified_name).join(', ')}`,
    );
    const cycles = structured<CyclesResult>(await call('graph_cycles', {}));
    expect(cycles.summary).to.deep.equal({ cycles: 2, nodes_in_cycles: 5, largest_sizes: [3, 2], deferred_cycles: 0 });
  });

  it('gives at least as many communities at a higher resolution, and def-level members are definitions', async () => {
    const low = structured<CommunitiesResult>(await call('graph_communities', { resolution: 0.2 }));
    const high = structured<CommunitiesResult>(await call('graph_communities', { resolution: 5 }));
    expect(high.graph.communities).to.be.at.least(low.graph.communities);
    expect(high.graph.resolution).to.equal(5);
    const defs = structured<CommunitiesResult>(await call('graph_communities', { level: 'def' }));
    expect(defs.communities.flatMap((c) => names(c.members))).to.include.members(['one', 'ping', 'main']);
  });

  const malformed: [string, string, Record<string, unknown>][] = [
    ['graph_cycles', 'an unknown level', { level: 'module' }],
    ['graph_cycles', 'an unknown field', { level: 'file', depth: 2 }],
    ['graph_communities', 'a zero resolution', { resolution: 0 }],
    ['graph_communities', 'a string resolution', { resolution: 'high' }],
  ];
  for (const [tool, what, args] of malformed) {
    it(`${tool} answers E_INVALID_ARGUMENT for ${what}`, async () => {
      expect(errorCode(await call(tool, args))).to.equal('E_INVALID_ARGUMENT');
    });
  }
});
