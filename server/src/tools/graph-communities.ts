import { z } from 'zod';
import { commonDirectory, communitiesOf } from '../scout/graph-summary.js';
import { graphOf, levelParameter, memberLabel, memberOf, type GraphLevel, type GraphMember } from './graph-level.js';
import { defineTool } from './tool.js';

const input = z
  .object({
    level: levelParameter,
    resolution: z.number().positive().max(100).default(1.0).describe('Louvain resolution; higher gives more, smaller communities'),
  })
  .strict();

export interface CommunitiesResult {
  level: GraphLevel;
  graph: { nodes: number; edges: number; modularity: number; resolution: number; communities: number };
  communities: { id: number; size: number; label: string; members: GraphMember[] }[];
}

export const graphCommunitiesTool = defineTool({
  name: 'graph_communities',
  group: 'Analysis',
  readOnly: true,
  description:
    'Module clusters found by Louvain community detection on the file import graph or the definition reference graph (as undirected, weighted by edge counts): every community with its full member list, untruncated, plus the modularity of the partition.',
  inputSchema: input,
  returns: 'level, graph {nodes, edges, modularity, resolution, communities}, communities [{id, size, label (shared directory), members}] largest first; members are file paths (level file) or {def_uid, qualified_name, kind, path} (level def).',
  whenToUse: 'When you need the full module structure (recon_scout shows only the largest communities, truncated), e.g. to decide where new code belongs or which files move together.',
  related: ['recon_scout', 'graph_cycles'],
  errors: [],
  example: { level: 'file', resolution: 1.0 },
  needsIndex: true,
  async handler(args, ctx): Promise<CommunitiesResult> {
    const graph = graphOf(ctx.index, args.level);
    const found = communitiesOf(graph, args.resolution);
    const communities = found.communities.map((nodes, id) => {
      const members = nodes.map((n) => memberOf(graph, args.level, n));
      const paths = members.map((m) => (typeof m === 'string' ? m : m.path));
      return { id, size: nodes.length, label: commonDirectory(paths) || '(repository root)', members };
    });
    return { level: args.level, graph: { nodes: graph.order, edges: graph.size, modularity: found.modularity, resolution: found.resolution, communities: communities.length }, communities };
  },
  render(result) {
    const g = result.graph;
    const head = `${g.communities} communities in the ${result.level} graph (${g.nodes} nodes, ${g.edges} edges), modularity ${g.modularity.toFixed(4)} at resolution ${g.resolution}`;
    return [head, ...result.communities.map((c) => `${c.id}. ${c.label} (${c.size}): ${c.members.map(memberLabel).join(', ')}`)].join('\n');
  },
});
