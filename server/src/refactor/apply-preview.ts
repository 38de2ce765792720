import {
  constants,
  accessSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { AgentgovError, type FileMove, type RefactorEdit } from '@agentgov/core';
import { simpleGit } from 'simple-git';
import { contentHash, type RefactorPreview } from './refactor-preview.js';

/** Files whose content differs from the hash the preview recorded (or that disappeared). */
export function staleFiles(root: string, preview: RefactorPreview): string[] {
  const stale: string[] = [];
  for (const [path, hash] of preview.hashes) {
    let text: string | undefined;
    try {
      text = readFileSync(join(root, path), 'utf8');
    } catch {
      text = undefined;
    }
    if (text === undefined || contentHash(text) !== hash) stale.push(path);
  }
  return stale.sort();
}

/** A file's text with its edits applied (edits never overlap; applied back to front by offset). */
export function applyEdits(text: string, edits: readonly RefactorEdit[]): string {
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const offset = (line: number, col: number) => (lineStarts[line - 1] ?? text.length) + col;
  const ranges = edits
    .map((edit) => ({
      start: offset(edit.span.startLine, edit.span.startCol),
      end: offset(edit.span.endLine, edit.span.endCol),
      edit,
    }))
    .sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let floor = Number.POSITIVE_INFINITY;
  for (const { start, end, edit } of ranges) {
    if (end > floor) continue; // an overlapping duplicate: the first (outermost) edit wins
    if (text.slice(start, end) !== edit.oldText)
      throw new AgentgovError(
        'E_PREVIEW_STALE',
        `${edit.path} no longer holds '${edit.oldText}' at ${edit.span.startLine}:${edit.span.startCol + 1}`,
        { files: [edit.path] },
      );
    out = out.slice(0, start) + edit.newText + out.slice(end);
    floor = start;
  }
  return out;
}

interface Written {
  path: string;
  original: string;
}

/**
 * Applies a preview's selected edits (all by default) and its moves, all-or-nothing: every new
 * content goes to a temp file next to its target first (a failure there leaves the repository untouched), then each
 * temp is renamed into place
 * and the moves run (`git mv` for tracked paths); a failure in that phase restores every file
 * already replaced and undoes the moves already made. Answers the files it changed (old paths
 * of moved files and their new paths).
 */
export async function applyPreview(
  root: string,
  preview: RefactorPreview,
  selected: readonly RefactorEdit[] = preview.edits,
): Promise<{ changed: string[]; moved: FileMove[] }> {
  const byPath = new Map<string, RefactorEdit[]>();
  for (const edit of selected) byPath.set(edit.path, [...(byPath.get(edit.path) ?? []), edit]);
  const plans: Array<{ path: string; original: string; next: string; temp: string }> = [];
  for (const [path, edits] of byPath) {
    const absolute = join(root, path);
    const original = readFileSync(absolute, 'utf8');
    plans.push({ path, original, next: applyEdits(original, edits), temp: `${absolute}.agentgov-${preview.id}.tmp` });
  }
  for (const move of preview.moves) {
    if (existsSync(join(root, move.to)))
      throw new AgentgovError('E_DESTINATION_EXISTS', `${move.to} exists now; a move never overwrites`, {
        path: move.to,
      });
  }

  plans.sort((a, b) => a.path.localeCompare(b.path));

  // phase 1: temps (nothing in the repository changes yet)
  const temps: string[] = [];
  try {
    for (const plan of plans) {
      accessSync(join(root, plan.path), constants.W_OK);
      writeFileSync(plan.temp, plan.next, { mode: statSync(join(root, plan.path)).mode, flag: 'wx' });
      temps.push(plan.temp);
    }
  } catch (error) {
    for (const temp of temps) rmSync(temp, { force: true });
    throw failed('writing the new contents', error);
  }

  // phase 2: into place, then the moves
  const written: Written[] = [];
  const moved: Array<FileMove & { git: boolean }> = [];
  const git = simpleGit(root);
  try {
    for (const plan of plans) {
      renameSync(plan.temp, join(root, plan.path));
      written.push({ path: plan.path, original: plan.original });
    }
    for (const move of preview.moves) {
      mkdirSync(dirname(join(root, move.to)), { recursive: true });
      const viaGit = preview.gitMoves.has(move.from);
      if (viaGit) await git.mv(move.from, move.to);
      else renameSync(join(root, move.from), join(root, move.to));
      moved.push({ ...move, git: viaGit });
    }
  } catch (error) {
    await rollBack(root, git, written, moved);
    for (const temp of temps) rmSync(temp, { force: true });
    throw failed('moving the files into place', error);
  }
  return { changed: plans.map((p) => p.path), moved: preview.moves };
}

async function rollBack(
  root: string,
  git: ReturnType<typeof simpleGit>,
  written: Written[],
  moved: Array<FileMove & { git: boolean }>,
): Promise<void> {
  for (const move of [...moved].reverse()) {
    if (move.git) await git.mv(move.to, move.from).catch(() => renameSync(join(root, move.to), join(root, move.from)));
    else renameSync(join(root, move.to), join(root, move.from));
  }
  for (const file of written) writeFileSync(join(root, file.path), file.original);
}

function failed(stage: string, error: unknown): AgentgovError {
  if (error instanceof AgentgovError) return error;
  const cause = error as NodeJS.ErrnoException;
  return new AgentgovError(
    'E_APPLY_FAILED',
    `refactor not applied: ${stage} failed (${cause.code ?? ''} ${cause.message}); every file is as it was`,
    { stage, errno: cause.code ?? null, path: cause.path ?? null },
    { cause: error },
  );
}
