import { createRequire } from 'node:module';
import { seededRandom } from '@agentgov/core';
import { UndirectedGraph } from 'graphology';
import { stronglyConnectedComponents } from 'graphology-components';
import type { AbstractGraph } from 'graphology-types';

// CommonJS modules whose typings declare `export default`: load them as CommonJS to get the function.
const require = createRequire(import.meta.url);
const louvain = require('graphology-communities-louvain') as typeof import('graphology-communities-louvain').default;
type PagerankOf = typeof import('graphology-metrics/centrality/pagerank.js').default;
const pagerankOf = require('graphology-metrics/centrality/pagerank') as PagerankOf;

export interface CommunityResult {
  /** Communities, largest first; members sorted. */
  communities: string[][];
  modularity: number;
  resolution: number;
}

/** PageRank (graphology-metrics), edges weighted by their `weight` attribute; nodes sorted by score, best first. */
export function pagerank(graph: AbstractGraph): Array<{ node: string; score: number }> {
  if (graph.order === 0) return [];
  const scores = pagerankOf(graph, { getEdgeWeight: 'weight', alpha: 0.85, maxIterations: 1000, tolerance: 1e-10 });
  return Object.entries(scores)
    .map(([node, score]) => ({ node, score }))
    .sort((a, b) => b.score - a.score || (a.node < b.node ? -1 : 1));
}

const ranks = new WeakMap<AbstractGraph, Map<string, number>>();

/**
 * `pagerank` as a map by node, best first, remembered per graph object (the index hands out one graph while it is
 * kept): recon_scout's top symbols and recon's ranks share one computation.
 */
export function rankOf(graph: AbstractGraph): Map<string, number> {
  let scores = ranks.get(graph);
  if (!scores) {
    scores = new Map(pagerank(graph).map(({ node, score }) => [node, score]));
    ranks.set(graph, scores);
  }
  return scores;
}

/** The undirected projection Louvain runs on: parallel/antiparallel edges merged, weights summed. */
export function undirectedProjection(graph: AbstractGraph): UndirectedGraph {
  const projection = new UndirectedGraph();
  graph.forEachNode((node) => projection.addNode(node));
  graph.forEachEdge((_edge, attributes, source, target) => {
    if (source === target) return;
    const weight = typeof attributes['weight'] === 'number' ? (attributes['weight'] as number) : 1;
    projection.updateUndirectedEdge(source, target, (current) => ({
      weight: ((current['weight'] as number | undefined) ?? 0) + weight,
    }));
  });
  return projection;
}

/** Louvain communities (graphology-communities-louvain) on the undirected projection, with modularity. */
export function communities(graph: AbstractGraph, resolution = 1.0): CommunityResult {
  const projection = undirectedProjection(graph);
  if (projection.size === 0) {
    return { communities: projection.nodes().map((node) => [node]), modularity: 0, resolution };
  }
  const detailed = louvain.detailed(projection, { resolution, getEdgeWeight: 'weight', rng: seededRandom(42) });
  const groups = new Map<number, string[]>();
  for (const [node, community] of Object.entries(detailed.communities)) {
    const members = groups.get(community) ?? [];
    members.push(node);
    groups.set(community, members);
  }
  const list = [...groups.values()]
    .map((members) => members.sort())
    .sort((a, b) => b.length - a.length || (a[0]! < b[0]! ? -1 : 1));
  return { communities: list, modularity: detailed.modularity, resolution };
}

/** Strongly connected components with more than one node (graphology-components): the cycles. */
export function cycles(graph: AbstractGraph): string[][] {
  return stronglyConnectedComponents(graph)
    .filter((component) => component.length > 1)
    .map((component) => [...component].sort())
    .sort((a, b) => b.length - a.length || (a[0]! < b[0]! ? -1 : 1));
}
