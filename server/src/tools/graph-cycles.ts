import { z } from 'zod';
import { cyclesOf } from '../scout/graph-summary.js';
import { graphOf, levelParameter, memberLabel, memberOf, type GraphLevel, type GraphMember } from './graph-level.js';
import { defineTool } from './tool.js';

const input = z.object({ level: levelParameter }).strict();

export interface CyclesResult {
  level: GraphLevel;
  graph: { nodes: number; edges: number };
  total: number;
  cycles: { size: number; members: GraphMember[]; chain: GraphMember[] }[];
}

export const graphCyclesTool = defineTool({
  name: 'graph_cycles',
  group: 'Analysis',
  readOnly: true,
  description:
    'Every strongly connected component with more than one node (a circular dependency) of the file import graph or of the definition reference graph, untruncated, with one concrete chain through each and the graph size.',
  inputSchema: input,
  returns: 'level, graph {nodes, edges}, total, cycles [{size, members, chain}] largest first; members are file paths (level file) or {def_uid, qualified_name, kind, path} (level def); chain starts and ends on the same member.',
  whenToUse: 'When recon_scout reports cycles (or a cycle warning) and you need all of them in full, e.g. before moving files or breaking a dependency loop.',
  related: ['recon_scout', 'graph_communities', 'refactor_move'],
  errors: [],
  example: { level: 'file' },
  needsIndex: true,
  async handler(args, ctx): Promise<CyclesResult> {
    const graph = graphOf(ctx.index, args.level);
    const cycles = cyclesOf(graph).map((c) => ({ size: c.members.length, members: c.members.map((n) => memberOf(graph, args.level, n)), chain: c.chain.map((n) => memberOf(graph, args.level, n)) }));
    return { level: args.level, graph: { nodes: graph.order, edges: graph.size }, total: cycles.length, cycles };
  },
  render(result) {
    const head = `${result.total} cycle${result.total === 1 ? '' : 's'} in the ${result.level} graph (${result.graph.nodes} nodes, ${result.graph.edges} edges)`;
    return [head, ...result.cycles.map((c, i) => `${i + 1}. ${c.size} members: ${c.chain.map(memberLabel).join(' → ')}${c.size > c.chain.length - 1 ? `\n   all: ${c.members.map(memberLabel).join(', ')}` : ''}`)].join('\n');
  },
});
