import { z } from 'zod';
import { cyclesOf } from '../scout/graph-summary.js';
import { compareMembers, graphMemberSchema, graphOf, levelParameter, memberLabel, memberOf, type GraphLevel, type GraphMember } from './graph-level.js';
import { defineTool } from './tool.js';

const input = z.object({ level: levelParameter }).strict();

export interface CyclesResult {
  /** Read first: how many cycles, and the sizes of the largest. */
  summary: { cycles: number; nodes_in_cycles: number; largest_sizes: number[] };
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
  outputSchema: z.object({
    summary: z.object({ cycles: z.number().int(), nodes_in_cycles: z.number().int(), largest_sizes: z.array(z.number().int()) }).strict(),
    level: z.enum(['file', 'def']),
    graph: z.object({ nodes: z.number().int(), edges: z.number().int() }).strict(),
    total: z.number().int(),
    cycles: z.array(z.object({ size: z.number().int(), members: z.array(graphMemberSchema), chain: z.array(graphMemberSchema) }).strict()),
  }),
  returns: 'summary {cycles, nodes_in_cycles, largest_sizes} first, then level, graph {nodes, edges}, total, cycles [{size, members (sorted), chain}] largest first in a stable order; members are file paths (level file) or {def_uid, qualified_name, kind, path} (level def); chain starts and ends on the same member.',
  whenToUse: 'When recon_scout reports cycles (or a cycle warning) and you need all of them in full, e.g. before moving files or breaking a dependency loop.',
  related: ['recon_scout', 'graph_communities', 'refactor_move'],
  errors: [],
  example: { level: 'file' },
  needsIndex: true,
  async handler(args, ctx): Promise<CyclesResult> {
    const graph = graphOf(ctx.index, args.level);
    const cycles = cyclesOf(graph)
      .map((c) => ({ size: c.members.length, members: c.members.map((n) => memberOf(graph, args.level, n)).sort(compareMembers), chain: c.chain.map((n) => memberOf(graph, args.level, n)) }))
      .sort((a, b) => b.size - a.size || compareMembers(a.members[0]!, b.members[0]!));
    const summary = { cycles: cycles.length, nodes_in_cycles: cycles.reduce((n, c) => n + c.size, 0), largest_sizes: cycles.slice(0, 5).map((c) => c.size) };
    return { summary, level: args.level, graph: { nodes: graph.order, edges: graph.size }, total: cycles.length, cycles };
  },
  render(result) {
    const head = `${result.total} cycle${result.total === 1 ? '' : 's'} in the ${result.level} graph (${result.graph.nodes} nodes, ${result.graph.edges} edges); ${result.summary.nodes_in_cycles} nodes in cycles${result.total ? `, largest: ${result.summary.largest_sizes.join(', ')}` : ''}`;
    return [head, ...result.cycles.map((c, i) => `${i + 1}. ${c.size} members: ${c.chain.map(memberLabel).join(' → ')}${c.size > c.chain.length - 1 ? `\n   all: ${c.members.map(memberLabel).join(', ')}` : ''}`)].join('\n');
  },
});
