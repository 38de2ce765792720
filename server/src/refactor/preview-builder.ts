import { AgentgovError, type FileMove, type RefactorEdit, type RenameCollision } from '@agentgov/core';
import type { UneditedReference } from '@agentgov/core';
import type { RefactorService } from './refactor-service.js';
import { contentHash, inFileOrder, resultOf, type RefactorPreviewResult } from './refactor-preview.js';

/** Keeps edits inside `contexts` (files or directory prefixes); all edits when none are given. */
export function withinContexts(edits: RefactorEdit[], contexts: readonly string[] | undefined): RefactorEdit[] {
  if (!contexts || contexts.length === 0) return edits;
  return edits.filter((edit) =>
    contexts.some((c) => edit.path === c || edit.path.startsWith(c.endsWith('/') ? c : `${c}/`)),
  );
}

/** One edit per exact range (engines may report a location twice). */
function distinct(edits: RefactorEdit[]): RefactorEdit[] {
  const seen = new Map<string, RefactorEdit>();
  for (const edit of edits) {
    const key = `${edit.path}:${edit.span.startLine}:${edit.span.startCol}:${edit.span.endLine}:${edit.span.endCol}`;
    if (!seen.has(key)) seen.set(key, edit);
  }
  return [...seen.values()];
}

/** Records the preview with the content hash of every file it edits or moves, and answers its result. */
export function storePreview(
  service: RefactorService,
  preview: {
    kind: 'rename' | 'move';
    edits: RefactorEdit[];
    moves: FileMove[];
    movedFiles: string[];
    gitMoves: Set<string>;
    collisions: RenameCollision[];
    unedited: UneditedReference[];
    warnings: string[];
    engines: string[];
    summary: string;
  },
): RefactorPreviewResult {
  const edits = inFileOrder(distinct(preview.edits)).map((edit, i) => ({ ...edit, id: `h${i + 1}` }));
  const hashes = new Map<string, string>();
  for (const path of [...new Set([...edits.map((e) => e.path), ...preview.movedFiles])]) {
    const text = service.workspace.read(path);
    if (text === undefined) throw new AgentgovError('E_NOT_FOUND', `${path} cannot be read`, { path });
    hashes.set(path, contentHash(text));
  }
  const order = (a: UneditedReference, b: UneditedReference) =>
    a.path.localeCompare(b.path) || a.line - b.line || (a.column ?? 0) - (b.column ?? 0);
  const unedited = [...preview.unedited].sort(order);
  const stored = service.add({
    kind: preview.kind,
    edits,
    moves: preview.moves,
    gitMoves: preview.gitMoves,
    collisions: preview.collisions,
    unedited,
    warnings: [...new Set(preview.warnings)],
    hashes,
    engines: preview.engines,
    summary: preview.summary,
  });
  return resultOf(stored);
}
