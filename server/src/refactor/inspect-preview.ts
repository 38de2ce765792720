import { AgentgovError } from '@agentgov/core';
import type { RefactorService } from './refactor-service.js';
import { hunkOf, type PreviewHunk, type RefactorPreview } from './refactor-preview.js';

export interface InspectResult {
  refactor_id: string;
  path: string;
  applied: false;
  /** The file's medium- and low-certainty hunks, each with numbered context lines (`>` marks the hunk's lines). */
  hunks: Array<PreviewHunk & { context: string }>;
  /** High-certainty hunks of the file, counted, not shown. */
  high: number;
  display_to_user: string;
}

/** The hunks of one file that need a human look, with `contextLines` lines around each. Applies nothing. */
export function inspectPreview(
  service: RefactorService,
  preview: RefactorPreview,
  path: string,
  contextLines: number,
): InspectResult {
  const edits = preview.edits.filter((edit) => edit.path === path);
  if (edits.length === 0) {
    const files = [...new Set(preview.edits.map((e) => e.path))].sort();
    throw new AgentgovError('E_NOT_FOUND', `refactor ${preview.id} has no edits in ${path}`, { path, files });
  }
  const lines = (service.workspace.read(path) ?? '').split('\n');
  const width = String(lines.length).length;
  const doubtful = edits
    .filter((edit) => edit.certainty !== 'high')
    .sort((a, b) => a.span.startLine - b.span.startLine || a.span.startCol - b.span.startCol);
  const hunks = doubtful.map((edit) => {
    const first = Math.max(1, edit.span.startLine - contextLines);
    const last = Math.min(lines.length, edit.span.endLine + contextLines);
    const context: string[] = [];
    for (let line = first; line <= last; line += 1) {
      const marker = line >= edit.span.startLine && line <= edit.span.endLine ? '>' : ' ';
      context.push(`${marker}${String(line).padStart(width)}| ${lines[line - 1] ?? ''}`);
    }
    return { ...hunkOf(edit), context: context.join('\n') };
  });
  const high = edits.length - doubtful.length;
  return {
    refactor_id: preview.id,
    path,
    applied: false,
    hunks,
    high,
    display_to_user:
      `${path}: ${hunks.length} medium/low-certainty hunk` +
      `${hunks.length === 1 ? '' : 's'} to review (` +
      `${high} high-certainty ` +
      'not shown); nothing applied. Accept them by id or file with refactor_commit accept.',
  };
}

export function renderInspect(result: InspectResult): string {
  const parts = [result.display_to_user];
  for (const hunk of result.hunks) {
    const change = `${JSON.stringify(hunk.old)} -> ${JSON.stringify(hunk.new)}`;
    parts.push(`${hunk.id} [${hunk.certainty}] ${hunk.line}:${hunk.column + 1} ${change}\n${hunk.context}`);
  }
  return parts.join('\n\n');
}
