import { AgentgovError, type Certainty } from '@agentgov/core';
import { pendingReview, type PreviewEdit, type RefactorPreview } from './refactor-preview.js';

/**
 * What the agent vouches for beyond the high edits: every medium hunk (`certainty: 'medium'`),
 * every medium and low hunk (`certainty: 'low'`), every medium/low hunk of some files, or hunks by id.
 */
export interface ReviewAcceptance {
  certainty?: 'medium' | 'low';
  /** Repo-relative paths (already resolved). */
  files?: string[];
  hunks?: string[];
}

export interface EditSelection {
  /** The edits to apply: every high edit and the accepted medium/low ones. */
  apply: PreviewEdit[];
  /** Medium/low edits nobody accepted (left out with `drop_unaccepted`, else the commit refuses). */
  unaccepted: PreviewEdit[];
}

const RANK: Record<Certainty, number> = { high: 0, medium: 1, low: 2 };

/**
 * Splits a preview's edits into the ones to apply and the medium/low ones nobody accepted. An
 * acceptance naming a hunk id or a file the preview does not hold is refused (E_NOT_FOUND), so a
 * typo never applies less, or more, than the agent meant.
 */
export function selectEdits(preview: RefactorPreview, accept: ReviewAcceptance | undefined): EditSelection {
  const ids = new Set(preview.edits.map((e) => e.id));
  const unknownHunks = (accept?.hunks ?? []).filter((id) => !ids.has(id));
  if (unknownHunks.length > 0) {
    const details = { refactor_id: preview.id, hunks: unknownHunks, pending_review: pendingReview(preview.edits) };
    const message = `refactor ${preview.id} has no hunk ${unknownHunks.join(', ')}; nothing was applied`;
    throw new AgentgovError('E_NOT_FOUND', message, details);
  }
  const paths = new Set(preview.edits.map((e) => e.path));
  const unknownFiles = (accept?.files ?? []).filter((path) => !paths.has(path));
  if (unknownFiles.length > 0) {
    const details = { refactor_id: preview.id, files: unknownFiles, pending_review: pendingReview(preview.edits) };
    const message = `refactor ${preview.id} has no edits in ${unknownFiles.join(', ')}; nothing was applied`;
    throw new AgentgovError('E_NOT_FOUND', message, details);
  }
  const hunks = new Set(accept?.hunks ?? []);
  const files = new Set(accept?.files ?? []);
  const accepted = (edit: PreviewEdit) =>
    edit.certainty === 'high' ||
    hunks.has(edit.id) ||
    files.has(edit.path) ||
    (accept?.certainty !== undefined && RANK[edit.certainty] <= RANK[accept.certainty]);
  const apply: PreviewEdit[] = [];
  const unaccepted: PreviewEdit[] = [];
  for (const edit of preview.edits) (accepted(edit) ? apply : unaccepted).push(edit);
  return { apply, unaccepted };
}

/** E_REVIEW_REQUIRED naming the unaccepted hunks: how many of each certainty, in which files, with their ids. */
export function reviewRequired(preview: RefactorPreview, unaccepted: readonly PreviewEdit[]): AgentgovError {
  const medium = unaccepted.filter((e) => e.certainty === 'medium').length;
  const low = unaccepted.length - medium;
  const pending = pendingReview(unaccepted);
  const where = pending.map((p) => `${p.path} (${p.hunks.length})`);
  const shown = where.slice(0, 10).join(', ') + (where.length > 10 ? `, … ${where.length - 10} more files` : '');
  return new AgentgovError(
    'E_REVIEW_REQUIRED',
    `refactor ${preview.id} has ${medium} medium and ${low} low-certainty hunk${unaccepted.length === 1 ? '' : 's'} ` +
      `nobody accepted, in ${pending.length} file${pending.length === 1 ? '' : 's'}: ${shown}; nothing was applied. ` +
      ('Accept them (accept: { hunks | files | certainty }) or apply only the high ' +
        'and accepted ones (drop_unaccepted: true).'),
    { refactor_id: preview.id, counts: { medium, low }, pending_review: pending },
  );
}
