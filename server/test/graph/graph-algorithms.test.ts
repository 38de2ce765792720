import { expect } from 'chai';
import { DirectedGraph } from 'graphology';
import { communities, cycles, pagerank } from '../../src/graph/graph-algorithms.js';

function graphOf(edges: Array<[string, string]>, extraNodes: string[] = []): DirectedGraph {
  const graph = new DirectedGraph();
  for (const node of extraNodes) graph.mergeNode(node);
  for (const [from, to] of edges) {
    graph.mergeNode(from);
    graph.mergeNode(to);
    graph.addDirectedEdge(from, to, { weight: 1 });
  }
  return graph;
}

describe('graph algorithms', () => {
  it('cycles: every strongly connected component larger than one node, largest first', () => {
    const graph = graphOf(
      [
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
        ['c', 'd'],
        ['d', 'e'],
        ['e', 'd'],
        ['e', 'f'],
      ],
      ['lonely'],
    );
    expect(cycles(graph)).to.deep.equal([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
    expect(cycles(graphOf([['x', 'y']]))).to.deep.equal([]);
  });

  it('pagerank: the node everything points at ranks first; scores sum to 1', () => {
    const ranked = pagerank(
      graphOf([
        ['a', 'hub'],
        ['b', 'hub'],
        ['c', 'hub'],
        ['hub', 'd'],
      ]),
    );
    expect(ranked.map((entry) => entry.node).slice(0, 2)).to.deep.equal(['d', 'hub']);
    expect(ranked.reduce((sum, entry) => sum + entry.score, 0)).to.be.closeTo(1, 1e-6);
    expect(pagerank(new DirectedGraph())).to.deep.equal([]);
  });

  it('communities: two cliques joined by one edge split in two, with their modularity', () => {
    const clique = (names: string[]) =>
      names.flatMap((a, i) => names.slice(i + 1).map((b) => [a, b] as [string, string]));
    const graph = graphOf([...clique(['a1', 'a2', 'a3', 'a4']), ...clique(['b1', 'b2', 'b3', 'b4']), ['a1', 'b1']]);
    const result = communities(graph, 1);
    expect(result.communities).to.deep.equal([
      ['a1', 'a2', 'a3', 'a4'],
      ['b1', 'b2', 'b3', 'b4'],
    ]);
    // Newman modularity of this split: 2 × (6/13 − (13/26)²) = 0.4230…
    expect(result.modularity).to.be.closeTo(2 * (6 / 13 - (13 / 26) ** 2), 1e-9);
    expect(result.resolution).to.equal(1);
    expect(communities(graph, 1)).to.deep.equal(result);
  });
});
