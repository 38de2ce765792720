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
};

/**
 * The retrieval view reads a file's import neighbours and a definition's callers and callees from the store for the
 * one file or definition asked about; the answers are those of the whole graphs the index builds.
 */
describe('recon/retrieval index: neighbours read from the store equal the whole graphs', function () {
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
});
