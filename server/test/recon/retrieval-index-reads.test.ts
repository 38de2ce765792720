import { expect } from 'chai';
import { retrievalIndexOf } from '../../src/recon/retrieval-index.js';
import { fixtureRepo, type FixtureRepo } from './fixture-repo.js';

/** Files importing each other in both directions, a self-import, an external import, calls between definitions. */
const GRAPH_REPO: Record<string, string> = {
  'src/a.ts':
    `import { b } from './b';\nimport { c } from './c';\nimport * as self from './a';\nimport { x } from 'lib';\n` +
    `export function a(): number {\n  return b() + c() + (self ? 0 : x);\n}\n`,
  'src/b.ts': `import { c } from './c';\nexport function b(): number {\n  return c();\n}\n`,
  'src/c.ts': `import { a } from './a';\nexport function c(): number {\n  return 1;\n}\nexport function d(): number {\n  return a() + c();\n}\n`,
  'src/lone.ts': `export const lone = 1;\n`,
  'src/notes.ts': `// nothing defined here\n`,
  // d again, on an earlier line of a later file: a name's definitions are in file order, then line order.
  'src/z.ts': `export function d(): number {\n  return 2;\n}\n`,
};

/**
 * The retrieval view reads from the store what it is asked about — a file's import neighbours, a definition's callers
 * and callees, definitions by uid, name or file — instead of holding the whole index; the answers are those of the
 * whole graphs and the whole list of definitions.
 */
describe('recon/retrieval index: what the view reads from the store equals the whole index', function () {
  this.timeout(60_000);
  let repo: FixtureRepo;
  before(async () => {
    repo = await fixtureRepo(GRAPH_REPO);
  });
  after(async () => {
    await repo?.index.close();
  });

  it('file imports and importers, in the file graph order', () => {
    const view = retrievalIndexOf(repo.index);
    const graph = repo.index.fileGraph();
    for (const path of [...view.files(), 'src/missing.ts']) {
      const expected = graph.hasNode(path)
        ? { imports: graph.outNeighbors(path), importers: graph.inNeighbors(path) }
        : { imports: [], importers: [] };
      expect(view.fileImports!(path), path).to.deep.equal(expected);
    }
    expect(view.fileImports!('src/a.ts')).to.deep.equal({ imports: ['src/b.ts', 'src/c.ts'], importers: ['src/c.ts'] });
  });

  it('callers and callees, in the definition graph order', () => {
    const view = retrievalIndexOf(repo.index);
    const graph = repo.index.defGraph();
    let edges = 0;
    for (const def of view.definitions()) {
      const related = view.neighbors!(def.def_uid);
      const callees = related.filter((n) => n.relation === 'callee').map((n) => n.def_uid);
      const callers = related.filter((n) => n.relation === 'caller').map((n) => n.def_uid);
      if (!graph.hasNode(def.def_uid)) {
        expect({ callees, callers }, def.def_uid).to.deep.equal({ callees: [], callers: [] });
        continue;
      }
      expect(callees, def.qualified_name).to.deep.equal([...graph.outNeighbors(def.def_uid)].sort());
      expect(callers, def.qualified_name).to.deep.equal([...graph.inNeighbors(def.def_uid)].sort());
      edges += callees.length;
    }
    expect(edges).to.be.greaterThan(3);
  });

  it('lists stored definitions by file and position, then a module entry per file without any', () => {
    const view = retrievalIndexOf(repo.index);
    const all = [...view.definitions()];
    const stored = repo.index
      .definitions({})
      .sort((a, b) =>
        a.path < b.path ? -1 : a.path > b.path ? 1 : a.start_line - b.start_line || a.start_col - b.start_col,
      );
    expect(all.slice(0, stored.length).map((d) => d.def_uid)).to.deep.equal(stored.map((d) => d.def_uid));
    expect(all.slice(stored.length)).to.deep.equal([
      {
        def_uid: 'module:src/notes.ts',
        path: 'src/notes.ts',
        kind: 'module',
        name: 'notes',
        qualified_name: 'src/notes.ts',
        start_line: 1,
        end_line: 2, // the file's line count: its text ends with a newline
        signature: null,
        docstring: null,
      },
    ]);
    expect(all.map((d) => d.name)).to.include.members(['a', 'b', 'c', 'd', 'lone']);
  });

  it('answers by uid, name and file as the list does, one object per definition in use', () => {
    const view = retrievalIndexOf(repo.index);
    const all = [...view.definitions()];
    for (const def of all) {
      expect(view.definition(def.def_uid), def.def_uid).to.deep.equal(def);
      expect(view.definitionsIn(def.path), def.path).to.deep.equal(all.filter((d) => d.path === def.path));
      expect(view.definitionsNamed(def.name), def.name).to.deep.equal(all.filter((d) => d.name === def.name));
      expect(view.definitionsIn(def.path)).to.include(view.definition(def.def_uid));
    }
    expect(view.definitionsNamed('d').map((d) => d.path)).to.deep.equal(['src/c.ts', 'src/z.ts']);
    expect(view.definition('0123456789abcdef')).to.equal(undefined);
    expect(view.definition('module:src/a.ts'), 'a file with definitions has no module entry').to.equal(undefined);
    expect(view.definitionsIn('src/missing.ts')).to.deep.equal([]);
    expect(view.definitionsNamed('missing')).to.deep.equal([]);
    expect(view.isKnownName('lone')).to.equal(true);
    expect(view.isKnownName('notes'), 'a module entry is a name').to.equal(true);
  });

  it('names every definition for name scoring, and may be listed inside another listing', () => {
    const view = retrievalIndexOf(repo.index);
    const key = (d: { def_uid: string; name: string; qualified_name: string }) =>
      `${d.def_uid} ${d.name} ${d.qualified_name}`;
    const names = [...view.definitionNames!()].map(key).sort();
    expect(names).to.deep.equal([...view.definitions()].map(key).sort());
    let pairs = 0;
    for (const outer of view.definitions())
      for (const inner of view.definitions()) if (outer.path === inner.path) pairs += 1;
    expect(pairs).to.be.greaterThan(names.length);
  });
});
