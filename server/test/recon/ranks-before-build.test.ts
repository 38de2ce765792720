import { expect } from 'chai';
import { rankOf } from '../../src/graph/graph-algorithms.js';
import { setMemoryTarget } from '../../src/memory.js';
import { retrievalIndexOf } from '../../src/recon/retrieval-index.js';
import { fixtureRepo } from './fixture-repo.js';

const CALLS_REPO: Record<string, string> = {
  'src/a.ts': `import { b } from './b';\nexport function a(): number {\n  return b() + b();\n}\n`,
  'src/b.ts': `import { c } from './c';\nexport function b(): number {\n  return c();\n}\n`,
  'src/c.ts': `export function c(): number {\n  return 1;\n}\nexport function d(): number {\n  return c();\n}\n`,
};

/** The ranks as the view computes them from a graph: PageRank over the mean, through their persisted JSON. */
function expectedRanks(graph: Parameters<typeof rankOf>[0]): Map<string, number> {
  const scores = [...rankOf(graph)];
  const mean = scores.reduce((sum, [, score]) => sum + score, 0) / scores.length;
  return new Map(JSON.parse(JSON.stringify(scores.map(([node, score]) => [node, score / mean]))) as [string, number][]);
}

/**
 * The first recon after recon_scout: the index still holds the definition graph scout used, and the view's one-time
 * builds (the lexical store, the word lists) would hold it alongside what they build. The ranks are taken from the
 * graph first, so a build near the memory target lets the graph go and the ranks do not build it again.
 */
describe('recon/retrieval index: the ranks are taken from a held definition graph before a one-time build', function () {
  this.timeout(60_000);

  for (const near of [true, false]) {
    it(
      near ? 'near the memory target: the graph goes, the ranks are the same' : 'no target: the graph stays',
      async () => {
        const repo = await fixtureRepo(CALLS_REPO);
        try {
          const graph = repo.index.defGraph();
          const expected = expectedRanks(graph);
          expect(expected.size).to.be.above(2);
          if (near) setMemoryTarget(1);
          const view = retrievalIndexOf(repo.index);
          view.isKnownName('nothingNamedThis');
          expect(repo.index.keptDefGraph!(), 'the graph after the build').to.equal(near ? undefined : graph);
          for (const [uid, rank] of expected) expect(view.pagerank(uid), uid).to.equal(rank);
          expect(view.pagerank('no such uid')).to.equal(1);
          expect(repo.index.keptDefGraph!(), 'the ranks built no graph').to.equal(near ? undefined : graph);
        } finally {
          setMemoryTarget(0);
          await repo.index.close();
        }
      },
    );
  }
});
