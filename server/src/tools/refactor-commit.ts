import { AgentgovError, type Certainty } from '@agentgov/core';
import { z } from 'zod';
import { applyPreview, staleFiles } from '../refactor/apply-preview.js';
import { inspectPreview, renderInspect, type InspectResult } from '../refactor/inspect-preview.js';
import { refactorService } from '../refactor/refactor-context.js';
import { countByCertainty, pendingReview } from '../refactor/refactor-preview.js';
import { reviewRequired, selectEdits } from '../refactor/review-acceptance.js';
import { defineTool } from './tool.js';

const input = z
  .object({
    refactor_id: z.string().min(1).describe('Id from refactor_rename or refactor_move'),
    inspect_path: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Inspect this file's uncertain hunks instead of applying. Shows its medium/low-certainty " +
          'hunks with context (inspect mode)',
      ),
    context_lines: z
      .number()
      .int()
      .min(0)
      .max(50)
      .default(2)
      .describe('Lines of context around each hunk in inspect mode'),
    accept: z
      .object({
        certainty: z
          .enum(['medium', 'low'])
          .optional()
          .describe('"medium": every medium hunk; "low": every medium and low one'),
        files: z.array(z.string().min(1)).optional().describe('Every medium/low hunk of these files'),
        hunks: z
          .array(z.string().regex(/^h\d+$/))
          .optional()
          .describe('These hunk ids (`h3`)'),
      })
      .strict()
      .optional()
      .describe(
        'Reviewed medium/low hunks to apply. High hunks always apply; pending medium/low ' +
          'ones refuse the commit (E_REVIEW_REQUIRED)',
      ),
    drop_unaccepted: z
      .boolean()
      .default(false)
      .describe(
        'Apply what is vouched for, leave the rest. Unapplied hunks are listed in `not_applied` instead of refusing',
      ),
  })
  .strict();

export interface CommitResult {
  refactor_id: string;
  applied: true;
  files_changed: string[];
  moves: Array<{ from: string; to: string }>;
  /** Per certainty, the edits applied. */
  counts: Record<Certainty, number>;
  /** Medium/low hunks left unapplied with drop_unaccepted: their ids per file. */
  not_applied: Array<{ path: string; hunks: string[] }>;
  /** The index epoch after the re-index (recon sees the new names from here on). */
  epoch: number;
  display_to_user: string;
}

export const refactorCommitTool = defineTool({
  name: 'refactor_commit',
  group: 'Refactor',
  readOnly: false,
  brief:
    'Applies a pending refactor_rename or refactor_move preview (all files or none), or with ' +
    "`inspect_path` shows one file's uncertain hunks without applying.",
  description:
    'Applies a pending refactor preview, all files or none. Only what was vouched ' +
    'for is applied: every high-certainty hunk, and medium/low hunks only when ' +
    '`accept` names them (by hunk id, file or certainty); while any medium/low ' +
    'hunk is neither accepted nor dropped (`drop_unaccepted: true`) it refuses ' +
    'with E_REVIEW_REQUIRED naming them, writing nothing. Refuses with E_PREVIEW_STALE ' +
    '(writing nothing) when any file changed since the preview, moves tracked ' +
    'files with git mv, and re-indexes before answering. With inspect_path it ' +
    "applies nothing and shows that file's medium/low-certainty hunks with context.",
  inputSchema: input,
  outputSchema: z
    .object({
      refactor_id: z.string(),
      applied: z.boolean(),
      display_to_user: z.string(),
      // apply
      files_changed: z.array(z.string()).optional(),
      moves: z.array(z.object({ from: z.string(), to: z.string() }).passthrough()).optional(),
      counts: z.record(z.number().int()).optional(),
      not_applied: z.array(z.object({ path: z.string(), hunks: z.array(z.string()) })).optional(),
      epoch: z.number().int().optional(),
      // inspect
      path: z.string().optional(),
      hunks: z
        .array(
          z.object({ old: z.string(), new: z.string(), line: z.number().int(), context: z.string() }).passthrough(),
        )
        .optional(),
      high: z.number().int().optional(),
    })
    .passthrough(),
  returns:
    'Apply: `applied`, `files_changed`, `moves`, `counts` per certainty (of the ' +
    'applied edits), `not_applied` (medium/low hunk ids left out with drop_unaccepted), ' +
    'the new index `epoch`, `display_to_user`. Inspect: `hunks` (with numbered ' +
    '`context`), `high` (count not shown), `applied: false`.',
  whenToUse:
    'After reviewing a refactor_rename/refactor_move preview; when verification_required ' +
    'is true, look at the medium/low hunks (inspect_path), then commit with accept ' +
    '(and drop_unaccepted for the ones you reject). Then checkpoint to lint, ' +
    'test and commit.',
  related: ['refactor_rename', 'refactor_move', 'refactor_cancel', 'checkpoint'],
  errors: [
    'E_PREVIEW_NOT_FOUND',
    'E_REVIEW_REQUIRED',
    'E_PREVIEW_STALE',
    'E_RENAME_COLLISION',
    'E_DESTINATION_EXISTS',
    'E_APPLY_FAILED',
    'E_READ_ONLY_SESSION',
    'E_NOT_FOUND',
    'E_PATH_OUTSIDE_REPO',
  ],
  example: { refactor_id: 'rf_3f9a1c0b2d4e', accept: { hunks: ['h4', 'h7'] }, drop_unaccepted: true },
  needsIndex: true,
  pathArguments: ['inspect_path'],
  async handler(args, ctx): Promise<CommitResult | InspectResult> {
    const service = refactorService(ctx);
    const preview = service.get(args.refactor_id);
    if (args.inspect_path !== undefined)
      return inspectPreview(service, preview, ctx.resolveRepoPath(args.inspect_path).relative, args.context_lines);
    if (preview.collisions.length > 0) {
      throw new AgentgovError(
        'E_RENAME_COLLISION',
        `the new name is already taken at ${preview.collisions.map((c) => `${c.path}:${c.line}`).join(', ')}`,
        { refactor_id: preview.id, collisions: preview.collisions },
      );
    }
    const stale = staleFiles(ctx.repoRoot, preview);
    if (stale.length > 0)
      throw new AgentgovError(
        'E_PREVIEW_STALE',
        `changed since the preview: ${stale.join(', ')}; nothing was written`,
        { refactor_id: preview.id, files: stale },
      );
    const acceptedFiles = args.accept?.files?.map((path) => ctx.resolveRepoPath(path).relative);
    const accept = args.accept && { ...args.accept, files: acceptedFiles };
    const selection = selectEdits(preview, accept);
    if (selection.unaccepted.length > 0 && !args.drop_unaccepted) throw reviewRequired(preview, selection.unaccepted);
    const applied = await applyPreview(ctx.repoRoot, preview, selection.apply);
    service.delete(preview.id);
    for (const engine of service.engines()) engine.invalidate?.(applied);
    const { epoch } = await ctx.index.refresh();
    const counts = countByCertainty(selection.apply);
    const notApplied = pendingReview(selection.unaccepted);
    const moved = applied.moved.map((m) => `${m.from} -> ${m.to}`);
    const dropped = selection.unaccepted.length;
    const left = dropped > 0 ? ` ${dropped} unaccepted medium/low hunks were not applied (not_applied).` : '';
    return {
      refactor_id: preview.id,
      applied: true,
      files_changed: applied.changed.sort(),
      moves: applied.moved,
      counts,
      not_applied: notApplied,
      epoch,
      display_to_user:
        `${preview.summary}: applied ${selection.apply.length} edits (${counts.high} high, ${counts.medium} medium, ` +
        (`${counts.low} low) in ${applied.changed.length} files` +
          `${moved.length ? `, moved ${moved.join(', ')}` : ''}.` +
          `${left} `) +
        'The index is updated.',
    };
  },
  render: (result) =>
    'applied' in result && result.applied
      ? result.display_to_user + '\n' + result.files_changed.join('\n')
      : renderInspect(result as InspectResult),
});
