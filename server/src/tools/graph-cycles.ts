import { z } from 'zod';
import { cyclesOf, importCyclesOf, type CycleFacts } from '../scout/graph-summary.js';
import {
  compareMembers,
  graphMemberSchema,
  graphOf,
  levelParameter,
  memberLabel,
  memberOf,
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

const input = z.object({ level: levelParameter, budget: budgetParameter, offset: offsetParameter }).strict();

/**
 * A cycle; one too large for half the budget lists its first members and chain links (`members_shown`, `chain_shown`).
 */
type CycleItem = {
  size: number;
  members: GraphMember[];
  chain: GraphMember[];
  members_shown?: number;
  chain_shown?: number;
};

export interface CyclesResult {
  /** Read first: how many cycles, and the sizes of the largest. */
  summary: { cycles: number; nodes_in_cycles: number; largest_sizes: number[]; deferred_cycles: number };
  level: GraphLevel;
  /** `deferred_edges`: file pairs whose imports are all type-only, deferred or dynamic (level file). */
  graph: { nodes: number; edges: number; deferred_edges: number };
  total: number;
  cycles: CycleItem[];
  /**
   * Level file: cycles that close only through type-only, deferred or dynamic imports (loading never runs into them).
   */
  deferred_cycles: CycleItem[];
  /** What this answer shows of the cycles followed by the deferred cycles: as many as fit the budget from `offset`. */
  page: Page;
}

const cycleItemSchema = z
  .object({
    size: z.number().int(),
    members: z.array(graphMemberSchema),
    chain: z.array(graphMemberSchema),
    members_shown: z.number().int().optional(),
    chain_shown: z.number().int().optional(),
  })
  .strict();

/** A cycle as listed: whole, or its first members and chain links when it alone takes more than `cap` characters. */
function fitCycle(cycle: CycleItem, cap: number): CycleItem {
  if (jsonCost(cycle) <= cap) return cycle;
  const members = headWithin(cycle.members, cap / 2);
  const chain = headWithin(cycle.chain, cap / 2);
  return { ...cycle, members, chain, members_shown: members.length, chain_shown: chain.length };
}

export const graphCyclesTool = defineTool({
  name: 'graph_cycles',
  group: 'Analysis',
  readOnly: true,
  brief:
    'Circular dependencies: every import cycle between files (or reference cycle between definitions), ' +
    'each with one concrete chain. Use it when recon_scout reports cycles and you need them all.',
  description:
    'Every strongly connected component with more than one node (a circular dependency) ' +
    'of the file import graph or of the definition reference graph, untruncated, ' +
    'with one concrete chain through each and the graph size. At file level, ' +
    'cycles that close only through imports that do not load with the module ' +
    '(Python `if TYPE_CHECKING:` imports, imports inside function bodies, `import()`) ' +
    'are listed apart as deferred_cycles.',
  inputSchema: input,
  outputSchema: z.object({
    summary: z
      .object({
        cycles: z.number().int(),
        nodes_in_cycles: z.number().int(),
        largest_sizes: z.array(z.number().int()),
        deferred_cycles: z.number().int(),
      })
      .strict(),
    level: z.enum(['file', 'def']),
    graph: z.object({ nodes: z.number().int(), edges: z.number().int(), deferred_edges: z.number().int() }).strict(),
    total: z.number().int(),
    cycles: z.array(cycleItemSchema),
    deferred_cycles: z.array(cycleItemSchema),
    page: pageSchema,
  }),
  returns:
    'summary {cycles, nodes_in_cycles, largest_sizes, deferred_cycles} first, ' +
    'then level, graph {nodes, edges, deferred_edges}, total, cycles [{size, ' +
    'members (sorted), chain}] largest first in a stable order, deferred_cycles ' +
    '(same shape; level file: cycles closed only through type-only, deferred ' +
    'or dynamic imports, which may contain load-time cycles); members are file ' +
    'paths (level file) or {def_uid, qualified_name, kind, path} (level def); ' +
    'chain starts and ends on the same member. ' +
    ('The answer fits `budget` (tokens, default 3000): the cycles, then the deferred ' +
      'ones, from `offset` while they fit; `page` ') +
    ('{total, offset, shown, omitted, next_offset, more} says what was left out; ' +
      'a cycle larger than half the budget lists its ') +
    'first members and chain links (`members_shown`, `chain_shown` of `size`).',
  whenToUse:
    'When recon_scout reports cycles (or a cycle warning) and you need all of ' +
    'them in full, e.g. before moving files or breaking a dependency loop.',
  related: ['recon_scout', 'graph_communities', 'refactor_move'],
  errors: [],
  example: { level: 'file' },
  needsIndex: true,
  async handler(args, ctx): Promise<CyclesResult> {
    const graph = graphOf(ctx.index, args.level);
    const found = args.level === 'file' ? importCyclesOf(graph) : { load: cyclesOf(graph), deferred: [] };
    const items = (list: CycleFacts[]): CycleItem[] =>
      list
        .map((c) => ({
          size: c.members.length,
          members: c.members.map((n) => memberOf(graph, args.level, n)).sort(compareMembers),
          chain: c.chain.map((n) => memberOf(graph, args.level, n)),
        }))
        .sort((a, b) => b.size - a.size || compareMembers(a.members[0]!, b.members[0]!));
    const all = items(found.load);
    const deferred = items(found.deferred);
    const summary = {
      cycles: all.length,
      nodes_in_cycles: all.reduce((n, c) => n + c.size, 0),
      largest_sizes: all.slice(0, 5).map((c) => c.size),
      deferred_cycles: deferred.length,
    };
    const deferred_edges = graph.filterEdges((_edge, attributes) => attributes['loadWeight'] === 0).length;
    const cap = itemCap(args.budget);
    const listed = [
      ...all.map((cycle) => ({ cycle: fitCycle(cycle, cap), deferred: false })),
      ...deferred.map((cycle) => ({ cycle: fitCycle(cycle, cap), deferred: true })),
    ];
    const { items: shown, page } = pageWithinBudget(listed, {
      offset: args.offset,
      limit: null,
      budgetTokens: args.budget,
      cost: (e) => jsonCost(e.cycle),
      noun: 'cycles',
      narrower: 'level file',
    });
    const cycles = shown.filter((e) => !e.deferred).map((e) => e.cycle);
    const deferred_cycles = shown.filter((e) => e.deferred).map((e) => e.cycle);
    return {
      summary,
      level: args.level,
      graph: { nodes: graph.order, edges: graph.size, deferred_edges },
      total: all.length,
      cycles,
      deferred_cycles,
      page,
    };
  },
  render(result) {
    const head =
      `${result.total} cycle${result.total === 1 ? '' : 's'} in the ` +
      `${result.level} graph (${result.graph.nodes} nodes, ` +
      `${result.graph.edges} edges); ${result.summary.nodes_in_cycles} nodes in ` +
      `cycles${result.total ? `, largest: ${result.summary.largest_sizes.join(', ')}` : ''}`;
    const cut = (c: CycleItem) =>
      c.members_shown !== undefined
        ? ` … (first ${c.chain_shown} links, ${c.members_shown} of ${c.size} members shown)`
        : '';
    const line = (c: CycleItem, i: number) =>
      `${i + 1}. ${c.size} members: ${c.chain.map(memberLabel).join(' → ')}` +
      `${c.size > c.chain.length - 1 ? `\n   all: ${c.members.map(memberLabel).join(', ')}` : ''}` +
      `${cut(c)}`;
    const first = result.page.offset;
    const deferredFirst = Math.max(0, first - result.total);
    const deferred = result.deferred_cycles.length
      ? [
          `${result.summary.deferred_cycles} more closed only through type-only, deferred ` +
            `or dynamic imports (${result.graph.deferred_edges} such file pairs); loading ` +
            `never runs into them:`,
          ...result.deferred_cycles.map((c, i) => line(c, deferredFirst + i)),
        ]
      : [];
    const footer = result.page.more ? [result.page.more] : [];
    return [head, ...result.cycles.map((c, i) => line(c, first + i)), ...deferred, ...footer].join('\n');
  },
});
