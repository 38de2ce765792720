import { createHash } from 'node:crypto';
import type { Certainty, FileMove, RefactorEdit, RenameCollision, UneditedReference } from '@agentgov/core';
import { z } from 'zod';

/** One exact replacement as the agent sees it: the replaced text, its replacement, and where. */
export interface PreviewHunk {
  /** The hunk's id in its preview (`h1`, `h2`, …): what `refactor_commit`'s `accept.hunks` names. */
  id: string;
  line: number;
  column: number;
  old: string;
  new: string;
  certainty: Certainty;
  range: { start_line: number; start_col: number; end_line: number; end_col: number };
}

export interface PreviewFile {
  path: string;
  hunks: PreviewHunk[];
}

/** What `refactor_rename` and `refactor_move` answer (the spec's refactor preview resource). */
export interface RefactorPreviewResult {
  refactor_id: string;
  kind: 'rename' | 'move';
  preview: {
    edits: PreviewFile[];
    moves: Array<{ from: string; to: string; git: boolean }>;
    collisions: RenameCollision[];
    counts: Record<Certainty, number>;
    files: number;
    /** True when a low- or medium-certainty hunk needs a look (see refactor_commit's inspect mode). */
    verification_required: boolean;
    /** Medium/low hunks refactor_commit will not apply unless accepted: their ids per file. */
    pending_review: Array<{ path: string; hunks: string[] }>;
    /** References to the symbol (importers of the moved files) the preview does not edit, each with why. */
    unedited: UneditedReference[];
    /** Hazards to read before applying. */
    warnings: string[];
  };
  display_to_user: string;
}

/** The output schema of a preview (refactor_rename and refactor_move answer the same shape). */
export const refactorPreviewSchema = z
  .object({
    refactor_id: z.string(),
    kind: z.enum(['rename', 'move']),
    preview: z
      .object({
        edits: z.array(
          z
            .object({
              path: z.string(),
              hunks: z.array(
                z
                  .object({
                    old: z.string(),
                    new: z.string(),
                    line: z.number().int(),
                    certainty: z.enum(['high', 'medium', 'low']),
                  })
                  .passthrough(),
              ),
            })
            .passthrough(),
        ),
        moves: z.array(z.object({ from: z.string(), to: z.string(), git: z.boolean() }).passthrough()),
        collisions: z.array(z.object({}).passthrough()),
        counts: z.record(z.number().int()),
        files: z.number().int(),
        verification_required: z.boolean(),
        pending_review: z.array(z.object({ path: z.string(), hunks: z.array(z.string()) })),
        unedited: z.array(
          z
            .object({
              path: z.string(),
              line: z.number().int(),
              certainty: z.enum(['high', 'medium', 'low']),
              reason: z.string(),
            })
            .passthrough(),
        ),
        warnings: z.array(z.string()),
      })
      .passthrough(),
    display_to_user: z.string(),
  })
  .passthrough();

/** A pending preview as the server keeps it: the exact edits and each touched file's content hash. */
/** An edit of a stored preview, with its hunk id. */
export type PreviewEdit = RefactorEdit & { id: string };

export interface RefactorPreview {
  id: string;
  kind: 'rename' | 'move';
  /** In file order, then source order; ids `h1`… in that order. */
  edits: PreviewEdit[];
  unedited: UneditedReference[];
  warnings: string[];
  moves: FileMove[];
  /** Moves that go through `git mv` (tracked paths). */
  gitMoves: Set<string>;
  collisions: RenameCollision[];
  /** Repo-relative path → sha1 of its content when the preview was made (every edited or moved file). */
  hashes: Map<string, string>;
  engines: string[];
  summary: string;
  lastUsed: number;
}

export function contentHash(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

export function countByCertainty(edits: readonly { certainty: Certainty }[]): Record<Certainty, number> {
  const counts: Record<Certainty, number> = { high: 0, medium: 0, low: 0 };
  for (const edit of edits) counts[edit.certainty] += 1;
  return counts;
}

export function hunkOf(edit: PreviewEdit): PreviewHunk {
  const { span } = edit;
  return {
    id: edit.id,
    line: span.startLine,
    column: span.startCol,
    old: edit.oldText,
    new: edit.newText,
    certainty: edit.certainty,
    range: { start_line: span.startLine, start_col: span.startCol, end_line: span.endLine, end_col: span.endCol },
  };
}

/** Edits in file order, then source order. */
export function inFileOrder<E extends RefactorEdit>(edits: readonly E[]): E[] {
  const position = (a: E, b: E) => a.span.startLine - b.span.startLine || a.span.startCol - b.span.startCol;
  return [...edits].sort((a, b) => a.path.localeCompare(b.path) || position(a, b));
}

/** Edits grouped by file, files and hunks in source order. */
export function filesOf(edits: readonly PreviewEdit[]): PreviewFile[] {
  const byPath = new Map<string, PreviewEdit[]>();
  for (const edit of edits) {
    const list = byPath.get(edit.path);
    if (list) list.push(edit);
    else byPath.set(edit.path, [edit]);
  }
  return [...byPath.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, list]) => ({
      path,
      hunks: list.sort((a, b) => a.span.startLine - b.span.startLine || a.span.startCol - b.span.startCol).map(hunkOf),
    }));
}

export function resultOf(preview: RefactorPreview): RefactorPreviewResult {
  const counts = countByCertainty(preview.edits);
  const edits = filesOf(preview.edits);
  return {
    refactor_id: preview.id,
    kind: preview.kind,
    preview: {
      edits,
      moves: preview.moves.map((m) => ({ from: m.from, to: m.to, git: preview.gitMoves.has(m.from) })),
      collisions: preview.collisions,
      counts,
      files: edits.length,
      verification_required: counts.low + counts.medium > 0,
      pending_review: pendingReview(preview.edits),
      unedited: preview.unedited,
      warnings: preview.warnings,
    },
    display_to_user: displayOf(preview, counts, edits.length),
  };
}

/** The medium/low hunk ids per file (what a commit refuses until accepted). */
export function pendingReview(edits: readonly PreviewEdit[]): Array<{ path: string; hunks: string[] }> {
  const byPath = new Map<string, string[]>();
  for (const edit of edits) {
    if (edit.certainty === 'high') continue;
    byPath.set(edit.path, [...(byPath.get(edit.path) ?? []), edit.id]);
  }
  return [...byPath].map(([path, hunks]) => ({ path, hunks }));
}

const MAX_UNEDITED_SHOWN = 20;

/** One line per reference left unedited (the first `MAX_UNEDITED_SHOWN`), for display_to_user. */
export function uneditedLines(unedited: readonly UneditedReference[]): string[] {
  const rank: Record<Certainty, number> = { high: 0, medium: 1, low: 2 };
  const lines = [...unedited]
    .sort((a, b) => rank[a.certainty] - rank[b.certainty])
    .slice(0, MAX_UNEDITED_SHOWN)
    .map((u) => `  ${u.path}:${u.line} [${u.certainty}] ${u.reason}${u.text ? ` — ${u.text}` : ''}`);
  const more = unedited.length - MAX_UNEDITED_SHOWN;
  if (more > 0) lines.push(`  … ${more} more in preview.unedited`);
  return lines;
}

function displayOf(preview: RefactorPreview, counts: Record<Certainty, number>, files: number): string {
  const total = counts.high + counts.medium + counts.low;
  const parts = [
    `${preview.summary}: ${total} edit${total === 1 ? '' : 's'} in ` +
      `${files} file${files === 1 ? '' : 's'} (` +
      `${counts.high} high, ${counts.medium} medium, ` +
      `${counts.low} low certainty).`,
  ];
  if (preview.moves.length > 0)
    parts.push(`Moves ${preview.moves.length} file${preview.moves.length === 1 ? '' : 's'}.`);
  if (preview.collisions.length > 0)
    parts.push(
      `Blocked: the new name is already taken at ` +
        `${preview.collisions.map((c) => `${c.path}:${c.line} (${c.existing})`).join(', ')}.`,
    );
  else if (counts.low + counts.medium > 0) {
    const doubtful = counts.medium + counts.low;
    parts.push(
      `${doubtful} medium/low hunk${doubtful === 1 ? '' : 's'} need review: refactor_commit applies only high edits ` +
        'and refuses until they are accepted (accept: { hunks | files | certainty }) or dropped ' +
        '(drop_unaccepted: true); inspect_path shows them with context.',
    );
  }
  parts.push(`Nothing is written until refactor_commit ${preview.id}.`);
  let text = parts.join(' ');
  for (const warning of preview.warnings) text += `\nWarning: ${warning}`;
  if (preview.unedited.length > 0) {
    const n = preview.unedited.length;
    const by = countByCertainty(preview.unedited);
    const header =
      `${n} reference${n === 1 ? '' : 's'} left unedited (` +
      `${by.high} high, ${by.medium} medium, ` +
      `${by.low} low):`;
    text += `\n${header}\n${uneditedLines(preview.unedited).join('\n')}`;
  }
  return text;
}

const MAX_RENDERED_HUNKS = 200;

/** The readable preview: one line per hunk, grouped by file, long previews cut (the structured result has all). */
export function renderPreview(result: RefactorPreviewResult): string {
  const lines = [result.display_to_user, `refactor_id: ${result.refactor_id}`];
  for (const move of result.preview.moves) lines.push(`move ${move.from} -> ${move.to}${move.git ? ' (git mv)' : ''}`);
  let shown = 0;
  for (const file of result.preview.edits) {
    lines.push(file.path);
    for (const hunk of file.hunks) {
      if (shown++ >= MAX_RENDERED_HUNKS) break;
      const change = `${JSON.stringify(hunk.old)} -> ${JSON.stringify(hunk.new)}`;
      lines.push(`  ${hunk.id} ${hunk.line}:${hunk.column + 1} [${hunk.certainty}] ${change}`);
    }
  }
  const total = result.preview.counts.high + result.preview.counts.medium + result.preview.counts.low;
  if (total > MAX_RENDERED_HUNKS) lines.push(`… ${total - MAX_RENDERED_HUNKS} more hunks in the structured result`);
  return lines.join('\n');
}
