import { DirectedGraph } from 'graphology';
import { loadTimeGraph } from '../graph/build-graphs.js';
import { communities, cycles } from '../graph/graph-algorithms.js';

/**
 * The graph restricted to the nodes `keep` accepts (a scope), with the edges between kept nodes.
 * Without a filter the graph itself is returned (callers only read it): copying a 40k-node
 * reference graph costs seconds.
 */
export function restrictGraph(
  graph: DirectedGraph,
  keep: ((node: string, attributes: Record<string, unknown>) => boolean) | null,
): DirectedGraph {
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
  graph.forEachInEdge(
    node,
    (_edge, attributes) => (total += typeof attributes['weight'] === 'number' ? (attributes['weight'] as number) : 1),
  );
  return total;
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
        for (let at: string | undefined = node; at !== undefined && at !== start; at = previous.get(at))
          chain.splice(1, 0, at);
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

export interface ImportCycles {
  /** Cycles loading runs into: every edge has an import that loads with its module. */
  load: CycleFacts[];
  /** Cycles of the whole import graph that close only through type-only, deferred or dynamic imports. */
  deferred: CycleFacts[];
}

const loadTimeGraphs = new WeakMap<DirectedGraph, DirectedGraph>();

/** The import cycles of a file graph, split by whether loading the modules can run into them. */
export function importCyclesOf(fileGraph: DirectedGraph): ImportCycles {
  let loading = loadTimeGraphs.get(fileGraph);
  if (!loading) loadTimeGraphs.set(fileGraph, (loading = loadTimeGraph(fileGraph)));
  const load = cyclesOf(loading);
  const loadKeys = new Set(load.map((c) => c.members.join('\0')));
  return { load, deferred: cyclesOf(fileGraph).filter((c) => !loadKeys.has(c.members.join('\0'))) };
}

export interface CommunityFacts {
  communities: string[][];
  modularity: number;
  resolution: number;
}

export function communitiesOf(graph: DirectedGraph, resolution: number): CommunityFacts {
  return communities(graph, resolution);
}

/**
 * A readable community label: the deepest directory holding more than half of the members
 * (`src/recon`, or `src/recon (12 of 15)` when some live elsewhere); the repository root when no
 * directory holds a majority.
 */
export function communityLabel(paths: readonly string[]): string {
  if (paths.length === 0) return '(repository root)';
  const counts = new Map<string, number>();
  for (const path of paths) {
    const parts = path.split('/').slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth += 1) {
      const dir = parts.slice(0, depth).join('/');
      counts.set(dir, (counts.get(dir) ?? 0) + 1);
    }
  }
  let best: { dir: string; count: number; depth: number } | undefined;
  for (const [dir, count] of counts) {
    if (count * 2 <= paths.length) continue;
    const depth = dir.split('/').length;
    if (
      !best ||
      depth > best.depth ||
      (depth === best.depth && (count > best.count || (count === best.count && dir < best.dir)))
    )
      best = { dir, count, depth };
  }
  if (!best) return '(repository root)';
  return best.count === paths.length ? best.dir : `${best.dir} (${best.count} of ${paths.length})`;
}
