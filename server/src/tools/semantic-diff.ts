import { AgentgovError } from '@agentgov/core';
import { z } from 'zod';
import { diffEpoch, diffRefs, isEpochRef, type SemanticDiffResult } from '../diff/semantic-diff.js';
import {
  budgetParameter,
  jsonCost,
  offsetParameter,
  pageSchema,
  pageWithinBudget,
  type Page,
} from './answer-budget.js';
import { defineTool } from './tool.js';

const input = z
  .object({
    base: z
      .string()
      .min(1)
      .default('HEAD')
      .describe('Base ref: commit, branch, tag, or `epoch:N`. `epoch:N` is index epoch N'),
    target: z.string().min(1).nullable().default(null).describe('Target ref. null = the working tree'),
    paths: z
      .array(z.string().min(1))
      .nullable()
      .default(null)
      .describe('Limit to these files or directories. null = all'),
    scope_id: z
      .string()
      .min(1)
      .nullable()
      .default(null)
      .describe('Scope id, echoed in the result. For budget tracking'),
    budget: budgetParameter,
    offset: offsetParameter,
  })
  .strict();

export const semanticDiffTool = defineTool({
  name: 'semantic_diff',
  group: 'Analysis',
  readOnly: true,
  brief:
    'Which definitions (functions, classes, methods) were added, removed, modified, renamed or changed ' +
    'signature between two git refs or since an index epoch. Use it to review a change before committing.',
  description:
    'Which definitions changed between two versions: added, removed, modified ' +
    '(body), renamed (same body, new name) and signature-changed, from parsing ' +
    'both versions. `epoch:N` compares against an index epoch.',
  inputSchema: input,
  outputSchema: z.object({
    base: z.string(),
    target: z.string(),
    changes: z.array(
      z
        .object({
          change: z.enum(['added', 'removed', 'modified', 'renamed', 'signature_changed']),
          path: z.string(),
          name: z.string(),
          qualified_name: z.string(),
          kind: z.string(),
          line: z.number().int(),
          old_path: z.string().optional(),
          old_name: z.string().optional(),
          old_signature: z.string().nullable().optional(),
          signature: z.string().nullable().optional(),
        })
        .strict(),
    ),
    counts: z.record(z.number().int()),
    files_compared: z.number().int(),
    skipped: z.array(z.object({ path: z.string(), reason: z.string() }).strict()),
    scope_id: z.string().optional(),
    page: pageSchema,
  }),
  returns:
    '`changes` (change, path, name, qualified_name, kind, line; old_name for ' +
    'renames, old_path for moved files, old_signature/signature for signature ' +
    'changes), `counts` per change kind, `files_compared`, and `skipped` files ' +
    'no language pack parses. ' +
    ('`changes` is one page: as many as fit `budget` (tokens, default 3000) from ' +
      '`offset`; `counts` are of all changes, and `page` ') +
    '{total, offset, shown, omitted, next_offset, more} says what was left out.',
  whenToUse:
    'To review what a change did at the definition level before committing, or ' +
    'what changed since an earlier index epoch.',
  related: ['recon_impact', 'checkpoint'],
  errors: ['E_NOT_FOUND', 'E_NOT_A_GIT_REPOSITORY', 'E_PATH_OUTSIDE_REPO', 'E_INDEX_NOT_READY'],
  example: { base: 'HEAD~1', target: 'HEAD', paths: ['src/'] },
  needsIndex: true,
  async handler(args, ctx): Promise<SemanticDiffResult & { page: Page }> {
    const paths = (args.paths ?? []).map((p) => ctx.resolveRepoPath(p).relative);
    let result: SemanticDiffResult;
    if (isEpochRef(args.base)) {
      if (args.target !== null)
        throw new AgentgovError(
          'E_INVALID_ARGUMENT',
          'an `epoch:N` base compares against the current index; omit `target`',
          { argument: 'target' },
        );
      result = diffEpoch(ctx.index, args.base, paths);
    } else {
      result = await diffRefs(ctx.repoRoot, args.base, args.target, paths, ctx.host.registries.languages.values());
    }
    const skipped = result.skipped.slice(0, 50);
    const reserved = jsonCost(skipped) + jsonCost(result.counts);
    const { items, page } = pageWithinBudget(result.changes, {
      offset: args.offset,
      limit: null,
      budgetTokens: args.budget,
      cost: jsonCost,
      reserved,
      noun: 'changes',
      narrower: 'paths: [a directory or file]',
    });
    const paged = { ...result, changes: items, skipped, page };
    return args.scope_id ? { ...paged, scope_id: args.scope_id } : paged;
  },
});
