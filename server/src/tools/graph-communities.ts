import { z } from 'zod';
import { communitiesOf, communityLabel } from '../scout/graph-summary.js';
import {
  compareMembers,
  graphMemberSchema,
  graphOf,
  levelParameter,
  memberLabel,
  memberOf,
  memberPath,
  type GraphLevel,
  type GraphMember,
} from './graph-level.js';
import {
  budgetParameter,
  headWithin,
  itemCap,
  jsonCost,
  offsetParameter,
  pageSchema,
  pageWithinBudget,
  type Page,
} from './answer-budget.js';
import { defineTool } from './tool.js';

const input = z
  .object({
    level: levelParameter,
    resolution: z
      .number()
      .positive()
      .max(100)
      .default(1.0)
      .describe('Louvain resolution; higher = more, smaller communities'),
    budget: budgetParameter,
    offset: offsetParameter,
  })
  .strict();

/** A definition of a singleton community, its file said once by the group it is in. */
type SingletonDef = { def_uid: string; qualified_name: string; kind: string };

export interface CommunitiesResult {
  /** Read first: counts, modularity, and the largest communities, so a client can stop reading after it. */
  summary: { communities: number; singletons: number; largest: { id: number; label: string; size: number }[] };
  level: GraphLevel;
  graph: { nodes: number; edges: number; modularity: number; resolution: number; communities: number };
  /**
   * Communities of two or more members: largest first, then by label; members sorted by path (and name at level def);
   * ids follow this order.
   */
  communities: { id: number; size: number; label: string; members: GraphMember[]; members_shown?: number }[];
  /**
   * The communities of one member, compactly, grouped by file and sorted by path: at level file one
   * entry per file (`defs` absent), at level def each file's singleton definitions in `defs`.
   */
  singletons: { path: string; defs?: SingletonDef[]; defs_total?: number }[];
  /**
   * What this answer shows of the list of communities followed by the singleton groups: as many as fit the
   * budget from `offset`, a community too large for half the budget with its first members only (`members_shown`).
   */
  page: Page;
}

type Community = CommunitiesResult['communities'][number];
type SingletonGroup = CommunitiesResult['singletons'][number];
type Entry = { community: Community } | { singleton: SingletonGroup };

/** How many of the largest communities the summary names. */
const SUMMARY_LARGEST = 5;

export const graphCommunitiesTool = defineTool({
  name: 'graph_communities',
  group: 'Analysis',
  readOnly: true,
  brief:
    'Module clusters (Louvain communities) of the import graph or the reference graph, ' +
    'with their members. Use it to see which files belong together or where new code fits.',
  description:
    'Module clusters found by Louvain community detection on the file import ' +
    'graph or the definition reference graph (as undirected, weighted by edge ' +
    'counts): every community with its full member list, untruncated, plus the ' +
    'modularity of the partition.',
  inputSchema: input,
  outputSchema: z.object({
    summary: z
      .object({
        communities: z.number().int(),
        singletons: z.number().int(),
        largest: z.array(z.object({ id: z.number().int(), label: z.string(), size: z.number().int() }).strict()),
      })
      .strict(),
    level: z.enum(['file', 'def']),
    graph: z
      .object({
        nodes: z.number().int(),
        edges: z.number().int(),
        modularity: z.number(),
        resolution: z.number(),
        communities: z.number().int(),
      })
      .strict(),
    communities: z.array(
      z
        .object({
          id: z.number().int(),
          size: z.number().int(),
          label: z.string(),
          members: z.array(graphMemberSchema),
          members_shown: z.number().int().optional(),
        })
        .strict(),
    ),
    singletons: z.array(
      z
        .object({
          path: z.string(),
          defs: z
            .array(z.object({ def_uid: z.string(), qualified_name: z.string(), kind: z.string() }).strict())
            .optional(),
          defs_total: z.number().int().optional(),
        })
        .strict(),
    ),
    page: pageSchema,
  }),
  returns:
    'summary {communities, singletons, largest [{id, label, size}]} first, then ' +
    'level, graph {nodes, edges, modularity, resolution, communities (all, singletons ' +
    'included)}, communities [{id, size, label (dominant directory), members}] ' +
    'of two or more members, largest first in a stable order (members are file ' +
    'paths at level file or {def_uid, qualified_name, kind, path} at level def, ' +
    'sorted by path), then singletons [{path, defs? [{def_uid, qualified_name, ' +
    'kind}]}]: every community of one member, grouped by file. ' +
    ('The answer fits `budget` (tokens, default 3000): the communities, then the ' +
      'singleton groups, from `offset` while they fit; ') +
    ('`page` {total, offset, shown, omitted, next_offset, more} says what was ' +
      'left out; a community larger than half the budget ') +
    'lists its first members (`members_shown` of `size`), a singleton group its first defs (`defs_total`).',
  whenToUse:
    'When you need the full module structure (recon_scout shows only the largest ' +
    'communities, truncated), e.g. to decide where new code belongs or which ' +
    'files move together.',
  related: ['recon_scout', 'graph_cycles'],
  errors: [],
  example: { level: 'file', resolution: 1.0 },
  needsIndex: true,
  async handler(args, ctx): Promise<CommunitiesResult> {
    const graph = graphOf(ctx.index, args.level);
    const found = communitiesOf(graph, args.resolution);
    const all = found.communities
      .map((nodes) => {
        const members = nodes.map((n) => memberOf(graph, args.level, n)).sort(compareMembers);
        return { size: nodes.length, label: communityLabel(members.map(memberPath)), members };
      })
      .sort((a, b) => b.size - a.size || a.label.localeCompare(b.label) || compareMembers(a.members[0]!, b.members[0]!))
      .map((community, id) => ({ id, ...community }));
    const allCommunities = all.filter((c) => c.size > 1);
    const allSingletons = singletonsByFile(all.filter((c) => c.size === 1).map((c) => c.members[0]!));
    const cap = itemCap(args.budget);
    const entries: Entry[] = [
      ...allCommunities.map((community) => ({ community: fitCommunity(community, cap) })),
      ...allSingletons.map((singleton) => ({ singleton: fitSingletons(singleton, cap) })),
    ];
    const { items, page } = pageWithinBudget(entries, {
      offset: args.offset,
      limit: null,
      budgetTokens: args.budget,
      cost: jsonCost,
      noun: 'communities and singleton groups',
      narrower: 'level file, or a lower resolution',
    });
    const communities = items.flatMap((e) => ('community' in e ? [e.community] : []));
    const singletons = items.flatMap((e) => ('singleton' in e ? [e.singleton] : []));
    const summary = {
      communities: all.length,
      singletons: all.length - communities.length,
      largest: allCommunities.slice(0, SUMMARY_LARGEST).map(({ id, label, size }) => ({ id, label, size })),
    };
    return {
      summary,
      level: args.level,
      graph: {
        nodes: graph.order,
        edges: graph.size,
        modularity: found.modularity,
        resolution: found.resolution,
        communities: all.length,
      },
      communities,
      singletons,
      page,
    };
  },
  render(result) {
    const g = result.graph;
    const head =
      `${g.communities} communities in the ` +
      `${result.level} graph (${g.nodes} nodes, ` +
      `${g.edges} edges), modularity ${g.modularity.toFixed(4)} at resolution ` +
      `${g.resolution}; ${result.summary.singletons} of one node`;
    const largest = `largest: ${result.summary.largest.map((c) => `${c.id}. ${c.label} (${c.size})`).join(', ')}`;
    const members = (list: GraphMember[]) =>
      result.level === 'file'
        ? list.map(memberLabel).join(', ')
        : byFile(list.map((m) => [memberPath(m), (m as { qualified_name: string }).qualified_name] as const));
    const lonely = result.singletons.length
      ? [
          '',
          `${result.summary.singletons} singletons (one node each)` +
            `${result.level === 'def' ? ', by file' : ''}` +
            `${result.page.omitted || result.page.offset ? ' (this page)' : ''}:`,
          result.level === 'file'
            ? result.singletons.map((s) => s.path).join(', ')
            : byFile(
                result.singletons.flatMap((s) => (s.defs ?? []).map((d) => [s.path, d.qualified_name] as const)),
                '\n',
              ),
        ]
      : [];
    const more = (c: Community) => (c.members_shown !== undefined ? ` … (${c.members_shown} of ${c.size} shown)` : '');
    const footer = result.page.more ? ['', result.page.more] : [];
    return [
      head,
      largest,
      '',
      ...result.communities.map((c) => `${c.id}. ${c.label} (${c.size}): ${members(c.members)}${more(c)}`),
      ...lonely,
      ...footer,
    ].join('\n');
  },
});

/** `path: a, b; other: c`: names grouped under their file, in the order given (sorted by path). */
function byFile(entries: ReadonlyArray<readonly [string, string]>, separator = '; '): string {
  const groups = new Map<string, string[]>();
  for (const [path, name] of entries) groups.set(path, [...(groups.get(path) ?? []), name]);
  return [...groups].map(([path, names]) => `${path}: ${names.join(', ')}`).join(separator);
}

/** A community as listed: whole, or its first members when it alone takes more than `cap` characters. */
function fitCommunity(community: Community, cap: number): Community {
  if (jsonCost(community) <= cap) return community;
  const members = headWithin(community.members, cap);
  return { ...community, members, members_shown: members.length };
}

/** A singleton group as listed: whole, or its first definitions when it alone takes more than `cap` characters. */
function fitSingletons(group: SingletonGroup, cap: number): SingletonGroup {
  if (!group.defs || jsonCost(group) <= cap) return group;
  return { ...group, defs: headWithin(group.defs, cap), defs_total: group.defs.length };
}

/** Singleton members grouped by file, sorted by path (and by name within a file). */
function singletonsByFile(members: GraphMember[]): CommunitiesResult['singletons'] {
  const groups = new Map<string, SingletonDef[]>();
  for (const member of [...members].sort(compareMembers)) {
    if (typeof member === 'string') groups.set(member, []);
    else
      groups.set(member.path, [
        ...(groups.get(member.path) ?? []),
        { def_uid: member.def_uid, qualified_name: member.qualified_name, kind: member.kind },
      ]);
  }
  return [...groups].map(([path, defs]) => (defs.length ? { path, defs } : { path }));
}
