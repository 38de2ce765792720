import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { innermostRange, type LanguagePack } from '@agentgov/core';
import { simpleGit } from 'simple-git';
import { extractFile, sha1 } from '../index/extract-file.js';
import type { Definition } from '../index/types.js';

/** What changed in one file against HEAD, in HEAD's line numbers (the ones coverage was taken at). */
export interface FileChange {
  path: string;
  status: 'modified' | 'added' | 'deleted' | 'unchanged';
  /** sha1 of the HEAD version (null when the file is new) and of the working version (null when deleted). */
  headHash: string | null;
  currentHash: string | null;
  /** Changed lines of the HEAD version (1-based); for a pure insertion, the lines around it. */
  changedLines: number[];
  /** The innermost HEAD definitions holding a changed line; every definition of a new or deleted file. */
  changedDefinitions: Definition[];
  /** Changed lines outside every definition (module bodies, imports). */
  moduleLines: number[];
  /** The same in the working version's numbering, for coverage taken after the edit. */
  currentSide: { changedLines: number[]; changedDefinitions: Definition[]; moduleLines: number[] };
  /**
   * For ranking only: the names of the functions holding the changed lines (as written, extracted or not) and the words
   * of the changed lines, lower case.
   */
  ranking: { names: string[]; words: string[] };
}

const KEYWORDS = new Set(
  (
    'function return const let var this self cls true false null undefined none ' +
    'typeof instanceof else elif while break continue throw raise new delete ' +
    'void class extends super import export from default async await yield case ' +
    'switch catch finally pass def lambda with assert not and for try'
  ).split(' '),
);

/** Identifiers and words of `text`, also split at `_` and camelCase, lower case, at least 3 letters, no keywords. */
export function wordsOf(text: string): string[] {
  const words = (text.match(/[A-Za-z_$][\w$]*/g) ?? []).flatMap((word) => [
    word,
    ...word.split(/_|(?<=[a-z])(?=[A-Z])/),
  ]);
  return [
    ...new Set(words.map((word) => word.toLowerCase()).filter((word) => word.length >= 3 && !KEYWORDS.has(word))),
  ];
}

const FUNCTION_HEADER =
  /(?:([\w$]+)\s*[:=]\s*(?:async\s+)?function\b|function\s*\*?\s*([\w$]+)\s*\(|\bdef\s+(\w+)|\bclass\s+(\w+))/;

/**
 * The name of the nearest function or class header above `line` (1-based) at a smaller indent:
 * `res.send = function send(`, `name: function (`, `function name(`, `def name`, `class Name`,
 * including functions the language pack does not extract as definitions.
 */
export function enclosingName(lines: readonly string[], line: number): string | undefined {
  const own = lines[line - 1] ?? '';
  let indent = own.trim() ? own.length - own.trimStart().length : Infinity;
  for (let i = line - 2; i >= 0 && indent > 0; i--) {
    const text = lines[i]!;
    if (!text.trim()) continue;
    const lead = text.length - text.trimStart().length;
    if (lead >= indent) continue;
    indent = lead;
    const match = FUNCTION_HEADER.exec(text);
    if (match) return (match[1] ?? match[2] ?? match[3] ?? match[4])!.toLowerCase();
  }
  return undefined;
}

function rankingOf(
  headLines: readonly string[],
  headChanged: number[],
  currentLines: readonly string[],
  currentChanged: number[],
): FileChange['ranking'] {
  const names = new Set<string>();
  const words = new Set<string>();
  for (const [lines, changed] of [
    [headLines, headChanged],
    [currentLines, currentChanged],
  ] as const) {
    for (const line of changed) {
      const name = enclosingName(lines, line);
      if (name && name.length >= 3) names.add(name);
      for (const word of wordsOf(lines[line - 1] ?? '')) words.add(word);
    }
  }
  return { names: [...names], words: [...words] };
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Old-side (or with `side: 'new'`, new-side) lines of a unified diff with zero context. */
export function oldSideLines(diff: string, side: 'old' | 'new' = 'old'): number[] {
  const lines = new Set<number>();
  for (const text of diff.split('\n')) {
    const match = HUNK.exec(text);
    if (!match) continue;
    const start = Number(side === 'old' ? match[1] : match[3]);
    const countText = side === 'old' ? match[2] : match[4];
    const count = countText === undefined ? 1 : Number(countText);
    if (count === 0) {
      // A pure insertion after line `start`: the lines on both sides stand for it.
      if (start > 0) lines.add(start);
      lines.add(start + 1);
    } else for (let line = start; line < start + count; line++) lines.add(line);
  }
  return [...lines].sort((a, b) => a - b);
}

/** Diffs `path` against HEAD and finds the HEAD definitions its changed lines fall in. */
export async function changeOf(root: string, path: string, languages: readonly LanguagePack[]): Promise<FileChange> {
  const git = simpleGit(root);
  let head: string | null = null;
  try {
    head = await git.show([`HEAD:${path}`]);
  } catch {
    head = null;
  }
  const absolute = join(root, path);
  const current = existsSync(absolute) ? readFileSync(absolute, 'utf8') : null;
  const base = {
    path,
    headHash: head === null ? null : sha1(head),
    currentHash: current === null ? null : sha1(current),
  };
  if (head === null) {
    const defs = current === null ? [] : (extractFile(path, current, languages)?.definitions ?? []);
    const all = { changedLines: [], changedDefinitions: defs, moduleLines: [] };
    return { ...base, status: 'added', ...all, currentSide: all, ranking: { names: [], words: [] } };
  }
  const headDefinitions = extractFile(path, head, languages)?.definitions ?? [];
  const unranked = { names: [], words: [] };
  if (current === null)
    return {
      ...base,
      status: 'deleted',
      changedLines: [],
      changedDefinitions: headDefinitions,
      moduleLines: [],
      currentSide: { changedLines: [], changedDefinitions: [], moduleLines: [] },
      ranking: unranked,
    };
  const none = { changedLines: [], changedDefinitions: [], moduleLines: [] };
  if (base.headHash === base.currentHash)
    return { ...base, status: 'unchanged', ...none, currentSide: none, ranking: unranked };
  const diff = await git.raw(['diff', '-U0', '--no-color', '--no-ext-diff', 'HEAD', '--', path]);
  const headSide = side(oldSideLines(diff, 'old'), headDefinitions);
  const currentSide = side(oldSideLines(diff, 'new'), extractFile(path, current, languages)?.definitions ?? []);
  return {
    ...base,
    status: 'modified',
    ...headSide,
    currentSide,
    ranking: rankingOf(head.split('\n'), headSide.changedLines, current.split('\n'), currentSide.changedLines),
  };
}

function side(changedLines: number[], definitions: Definition[]): FileChange['currentSide'] {
  const changed = new Map<string, Definition>();
  const moduleLines: number[] = [];
  for (const line of changedLines) {
    const def = innermostRange(definitions, line);
    if (def) changed.set(def.def_uid, def);
    else moduleLines.push(line);
  }
  return { changedLines, changedDefinitions: [...changed.values()], moduleLines };
}

/** `git diff --no-index -U0` of two texts (through temp files outside the repository). */
async function diffTexts(before: string, after: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'agentgov-diff-'));
  try {
    writeFileSync(join(dir, 'a'), before);
    writeFileSync(join(dir, 'b'), after);
    try {
      await promisify(execFile)('git', ['diff', '--no-index', '-U0', '--no-color', '--no-ext-diff', 'a', 'b'], {
        cwd: dir,
        maxBuffer: 1 << 28,
      });
      return '';
    } catch (error) {
      // exit status 1: the texts differ, the diff is on stdout
      const failed = error as { code?: number; stdout?: string };
      if (failed.code === 1 && typeof failed.stdout === 'string') return failed.stdout;
      throw error;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The change in the numbering of `coveredText`, a version coverage was taken at that is neither
 * HEAD nor the working version (the scheduler ran the tests after an earlier edit): its lines that
 * differ from the working version, plus its lines that already differed from HEAD (the earlier
 * edit itself is still part of the change against HEAD), and the definitions holding them.
 */
export async function changeInCoveredVersion(
  root: string,
  path: string,
  coveredText: string,
  languages: readonly LanguagePack[],
): Promise<FileChange['currentSide']> {
  const absolute = join(root, path);
  const current = existsSync(absolute) ? readFileSync(absolute, 'utf8') : '';
  let head = '';
  try {
    head = await simpleGit(root).show([`HEAD:${path}`]);
  } catch {
    head = '';
  }
  const sinceCovered = oldSideLines(await diffTexts(coveredText, current), 'old');
  const sinceHead = oldSideLines(await diffTexts(head, coveredText), 'new');
  const lines = [...new Set([...sinceCovered, ...sinceHead])].sort((a, b) => a - b);
  return side(lines, extractFile(path, coveredText, languages)?.definitions ?? []);
}
