import { z } from 'zod';
import {
  buildBriefing,
  warmBriefing,
  DEFAULT_MAX_COMMUNITIES,
  DEFAULT_MAX_CYCLES,
  DEFAULT_MAX_MEMBERS_PER_COMMUNITY,
  type Briefing,
} from '../scout/briefing.js';
import { runningScheduler } from '../test-impact/scheduler-for.js';
import { type TestImpactStatus, testImpactStatus, testImpactStatusSchema } from '../test-impact/status.js';
import { defineTool } from './tool.js';

const count = (what: string) => z.number().int().min(0).max(100_000).optional().describe(what);

const input = z
  .object({
    scope: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .default(null)
      .describe(
        'Directory to zoom into; omit for the whole repository. A directory from ' +
          'zoom_targets or any repo-relative directory',
      ),
    truncate: z
      .boolean()
      .default(true)
      .describe('Apply the default limits to communities and cycles. false returns the full data'),
    max_cycles: count(
      `Max cycles returned. Overrides the default (${DEFAULT_MAX_CYCLES} when truncate is true) when set`,
    ),
    max_communities: count(`Max communities returned. Default ${DEFAULT_MAX_COMMUNITIES} when truncate is true`),
    max_members_per_community: count(
      `Max members listed per community. Default ${DEFAULT_MAX_MEMBERS_PER_COMMUNITY} when truncate is true`,
    ),
  })
  .strict();

function list<T>(items: T[], line: (item: T) => string, empty = '  (none)'): string {
  return items.length ? items.map((item) => `  ${line(item)}`).join('\n') : empty;
}

export function renderBriefing(b: Briefing): string {
  const more = (shown: number, total: number) => (total > shown ? ` (${shown} of ${total})` : '');
  const entry = (e: Briefing['entry_points']['items'][number]): string => {
    const kinds = [e, ...(e.also ?? [])].map((d) => `${d.kind}${d.name ? ` ${d.name}` : ''}`).join('; ');
    const where = e.source ? ` ← ${e.source}` : e.indexed ? '' : ' (not indexed)';
    return `${e.path} [${kinds}]${where}`;
  };
  const symbol = (s: Briefing['top_symbols'][number]): string =>
    `${s.qualified_name} (${s.kind}) ${s.path}:${s.line} — ${s.references} references`;
  const community = (c: Briefing['communities']['items'][number]): string =>
    `${c.label} (${c.size} files): ${c.members.join(', ')}${c.size > c.members_shown ? ', …' : ''}`;
  const deferred = b.cycles.deferred.total
    ? `\n  + ${b.cycles.deferred.total} closed only through deferred or type-only imports ` +
      `(largest ${b.cycles.deferred.largest} files; graph_cycles lists them)`
    : '';
  const coverage = b.coverage
    ? `${Math.round(b.coverage.line_rate * 1000) / 10}% of ${b.coverage.lines_total} lines (${b.coverage.source})`
    : `null — ${b.coverage_reason}`;
  const lint = b.lint
    ? `${b.lint.errors} errors, ${b.lint.warnings} warnings in ${b.lint.files_with_problems} files (${b.lint.source})`
    : `null — ${b.lint_reason}`;
  const unparsed = (f: Briefing['parse_errors']['items'][number]): string =>
    `${f.path}:${f.first_line}:${f.first_col + 1} — ${f.errors} error and ${f.missing} missing nodes`;
  const sections = [
    b.context,
    ...(b.warning ? [`WARNING: ${b.warning}`] : []),
    `tree:\n${b.tree}`,
    `languages: ${b.languages.map((l) => `${l.language} ${Math.round(l.share * 100)}% (${l.files} files)`).join(', ')}`,
    `entry points${more(b.entry_points.shown, b.entry_points.total)}:\n` + `${list(b.entry_points.items, entry)}`,
    `top files (PageRank):\n${list(b.top_files, (f) => `${f.path} — ${f.importers} importers`)}`,
    `top symbols (PageRank):\n${list(b.top_symbols, symbol)}`,
    `communities${more(b.communities.shown, b.communities.total)}, modularity ` +
      `${b.communities.modularity}:\n${list(b.communities.items, community)}`,
    `cycles${more(b.cycles.shown, b.cycles.total)}:\n` +
      `${list(b.cycles.items, (c) => `${c.size} files: ${c.chain.join(' → ')}`)}` +
      deferred,
    `coverage: ${coverage}`,
    `lint: ${lint}`,
    `zoom targets (pass as scope): ${b.zoom_targets.map((z) => `${z.path} (${z.files})`).join(', ') || 'none'}`,
    ...(b.parse_errors.total > 0
      ? [
          `files that did not parse${more(b.parse_errors.shown, b.parse_errors.total)}:\n` +
            `${list(b.parse_errors.items, unparsed)}`,
        ]
      : []),
  ];
  return sections.join('\n\n');
}

export const reconScoutTool = defineTool({
  name: 'recon_scout',
  group: 'Discovery',
  readOnly: true,
  brief:
    'Recon scout: an orientation briefing of the repository or one directory: tree, languages, ' +
    'entry points, key files and symbols, module clusters, import cycles, coverage and lint ' +
    'health. Use it first in an unfamiliar codebase.',
  description:
    'Orientation briefing of the repository (or of one directory with `scope`): ' +
    'a compressed directory tree, languages, entry points, the most-imported ' +
    'files and most-referenced symbols by PageRank, module communities (Louvain), ' +
    'import cycles, coverage and lint health, a one-sentence context and a warning ' +
    'when a structural trap exists. Directories collapsed to fit the tree budget ' +
    'are listed in zoom_targets.',
  inputSchema: input,
  outputSchema: z
    .object({
      scope: z.string().nullable(),
      context: z.string(),
      warning: z.string().optional(),
      tree: z.string(),
      zoom_targets: z.array(
        z.object({ path: z.string(), files: z.number().int(), lines: z.number().int() }).passthrough(),
      ),
      languages: z.array(
        z
          .object({ language: z.string(), files: z.number().int(), lines: z.number().int(), share: z.number() })
          .passthrough(),
      ),
      entry_points: z
        .object({
          total: z.number().int(),
          shown: z.number().int(),
          items: z.array(z.object({ path: z.string(), kind: z.string() }).passthrough()),
        })
        .passthrough(),
      top_files: z.array(z.object({ path: z.string(), score: z.number() }).passthrough()),
      top_symbols: z.array(
        z
          .object({ def_uid: z.string(), qualified_name: z.string(), path: z.string(), score: z.number() })
          .passthrough(),
      ),
      communities: z
        .object({
          total: z.number().int(),
          shown: z.number().int(),
          modularity: z.number(),
          resolution: z.number(),
          items: z.array(
            z
              .object({ id: z.number().int(), label: z.string(), size: z.number().int(), members: z.array(z.string()) })
              .passthrough(),
          ),
        })
        .passthrough(),
      cycles: z
        .object({
          total: z.number().int(),
          shown: z.number().int(),
          items: z.array(z.object({ size: z.number().int(), chain: z.array(z.string()) }).passthrough()),
          deferred: z.object({ total: z.number().int(), largest: z.number().int() }).strict(),
        })
        .passthrough(),
      coverage: z.object({}).passthrough().nullable(),
      coverage_reason: z.string().optional(),
      lint: z.object({}).passthrough().nullable(),
      lint_reason: z.string().optional(),
      index: z
        .object({
          epoch: z.number().int(),
          files: z.number().int(),
          definitions: z.number().int(),
          skipped: z.record(z.number()),
        })
        .passthrough(),
      parse_errors: z
        .object({
          total: z.number().int(),
          shown: z.number().int(),
          items: z.array(
            z
              .object({
                path: z.string(),
                errors: z.number().int(),
                missing: z.number().int(),
                first_line: z.number().int(),
                first_col: z.number().int(),
              })
              .passthrough(),
          ),
        })
        .passthrough(),
      test_impact: testImpactStatusSchema,
    })
    .passthrough(),
  returns:
    'scope, context (one sentence), warning (only when a real hazard exists), ' +
    'tree, zoom_targets [{path, files, lines}], languages [{language, files, ' +
    'lines, share}], entry_points {total, shown, items [{path, kind, name, declared_in, ' +
    'indexed, source?, also? (other declarations of the same file)}]}, top_files ' +
    '[{path, score, importers, imports}], top_symbols [{def_uid, name, qualified_name, ' +
    'kind, path, line, score, references}], communities {total, shown, modularity, ' +
    'resolution, items [{id, label, size, members, members_shown}]}, cycles {total, ' +
    'shown, items [{size, chain, files, files_shown}], deferred {total, largest} ' +
    '(cycles closed only through type-only, deferred or dynamic imports; not ' +
    'in items, not a warning)}, coverage (or null + coverage_reason), lint (or ' +
    'null + lint_reason), index {epoch, files, definitions, skipped}, parse_errors ' +
    '{total, shown, items [{path, errors, missing, first_line, first_col}]} (files ' +
    'whose syntax did not parse: their facts come from the partial tree), test_impact ' +
    "(per-test coverage freshness and the test scheduler's state and progress; " +
    'recon_scout never starts it).',
  whenToUse:
    'First, to orient in an unfamiliar repository; again with `scope` set to ' +
    'a zoom target to see inside a collapsed directory.',
  related: ['recon', 'graph_cycles', 'graph_communities', 'describe'],
  errors: ['E_NOT_FOUND', 'E_PATH_OUTSIDE_REPO'],
  example: { scope: 'src', truncate: true },
  needsIndex: true,
  pathArguments: ['scope'],
  async handler(args, ctx): Promise<Briefing & { test_impact: TestImpactStatus }> {
    const scope = args.scope ? ctx.resolveRepoPath(args.scope).relative : '';
    const briefing = await buildBriefing(ctx.index, {
      scope,
      truncate: args.truncate,
      maxCycles: args.max_cycles,
      maxCommunities: args.max_communities,
      maxMembersPerCommunity: args.max_members_per_community,
      linters: ctx.host.registries.linters.names(),
    });
    // Shows the test scheduler's progress and coverage freshness; orienting never starts it.
    return { ...briefing, test_impact: testImpactStatus(ctx, runningScheduler(ctx.index)) };
  },
  render: (result) => {
    const progress = result.test_impact.scheduler?.progress;
    const files = progress ? ` (${progress.done}/${progress.total} test files)` : '';
    return `${renderBriefing(result)}\n\ntest impact: ${result.test_impact.summary}${files}`;
  },
  warm: warmBriefing,
});
