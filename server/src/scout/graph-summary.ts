import { DirectedGraph } from 'graphology';
import { communities, cycles, pagerank } from '../graph/graph-algorithms.js';

/**
 * The graph restricted to the nodes `keep` accepts (a scope), with the edges between kept nodes.
 * Without a filter the graph itself is returned (callers only read it): copying a 40k-node
 * reference graph costs seconds.
 */
export function restrictGraph(graph: DirectedGraph, keep: ((node: string, attributes: Record<string, unknown>) => boolean) | null): DirectedGraph {
  if (!keep) return graph;
  const restricted = new DirectedGraph();
  graph.forEachNode((node, attributes) => {
    if (keep(node, attributes)) restricted.addNode(node, attributes);
  });
  restricted.forEachNode((node) => {
    graph.forEachOutEdge(node, (_edge, attributes, _source, target) => {
      if (restricted.hasNode(target)) restricted.addDirectedEdge(node, target, attributes);
    });
  });
  return restricted;
}

/** Sum of the weights of the edges entering `node` (how often it is imported or referenced). */
export function weightedInDegree(graph: DirectedGraph, node: string): number {
  let total = 0;
  graph.forEachInEdge(node, (_edge, attributes) => (total += typeof attributes['weight'] === 'number' ? (attributes['weight'] as number) : 1));
  return total;
}

const ranks = new WeakMap<DirectedGraph, Map<string, number>>();

/** PageRank scores by node, best first; remembered per graph object (the index hands out one graph per epoch). */
export function rankOf(graph: DirectedGraph): Map<string, number> {
  let scores = ranks.get(graph);
  if (!scores) {
    scores = new Map(pagerank(graph).map(({ node, score }) => [node, score]));
    ranks.set(graph, scores);
  }
  return scores;
}

/**
 * One concrete chain through a strongly connected component: the shortest path from its first
 * member back to itself (breadth-first inside the component), e.g. `[a, b, c, a]`.
 */
export function cycleChain(graph: DirectedGraph, members: readonly string[]): string[] {
  const inside = new Set(members);
  const start = members[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.outNeighbors(node).sort()) {
      if (!inside.has(next)) continue;
      if (next === start) {
        const chain = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = previous.get(at)) chain.splice(1, 0, at);
        return [...chain, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [...members];
}

export interface CycleFacts {
  members: string[];
  chain: string[];
}

export function cyclesOf(graph: DirectedGraph): CycleFacts[] {
  return cycles(graph).map((members) => ({ members, chain: cycleChain(graph, members) }));
}

export interface CommunityFacts {
  communities: string[][];
  modularity: number;
  resolution: number;
}

export function communitiesOf(graph: DirectedGraph, resolution: number): CommunityFacts {
  return communities(graph, resolution);
}

/** The longest directory prefix shared by all paths ('' when none): a readable community label. */
export function commonDirectory(paths: readonly string[]): string {
  if (paths.length === 0) return '';
  const split = paths.map((p) => p.split('/').slice(0, -1));
  const first = split[0]!;
  let length = first.length;
  for (const parts of split) {
    let i = 0;
    while (i < length && parts[i] === first[i]) i++;
    length = i;
  }
  return first.slice(0, length).join('/');
}
