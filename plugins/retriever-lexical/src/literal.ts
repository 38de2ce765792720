import {
  innermostRange,
  largestRange,
  LineIndex,
  type RetrievalDefinition,
  type RetrievalIndex,
  type RetrievalQuery,
  type Retriever,
  type RetrieverCandidate,
} from '@agentgov/core';
import { codeText } from './documents.js';

export interface LiteralOptions {
  /** A literal found in more files than this says too little to vote (the plugin uses 6). */
  maxFiles: number;
  /** Definitions returned at most (the plugin uses 50). */
  limit: number;
}

/** Literals of one task searched at most (a pasted log is not a task of 200 flags). */
const MAX_LITERALS = 24;

/**
 * The code-like spans of a task, as written: command-line flags (`--files-with-matches`), backquoted or quoted spans
 * without spaces (`Pool`, 'simd-accel'), and the task's identifiers (`has_match`, `parseHeaders`), dotted ones
 * excepted. Prose words are not literals: they are the lexical retrievers' business.
 */
export function taskLiterals(query: RetrievalQuery): string[] {
  const task = query.task;
  const out: string[] = [];
  // `--files-with-matches`, and `-l/--files-with-matches` both whole and as its long flag.
  for (const m of task.matchAll(/(?<![\w-])(-[A-Za-z]\/)?(--[A-Za-z](?:[\w-]*[A-Za-z0-9])?)/g)) {
    if (m[1]) out.push(m[0]);
    out.push(m[2] as string);
  }
  for (const m of task.matchAll(/`([^`\s]{2,80})`|(?<![\w'])'([^'\s]{2,80})'(?![\w'])|"([^"\s]{2,80})"/g)) {
    out.push((m[1] ?? m[2] ?? m[3] ?? '').replace(/[.,:;]+$/, ''));
  }
  for (const identifier of query.identifiers) out.push(identifier);
  // A dotted name is left to the symbol retriever and the gate: a task's receiver is rarely the defining file's
  // (`app.cache` is `this.cache` where it is defined), and `e.g` is prose.
  const literals = out
    .map((l) => l.replace(/\(\)$/, ''))
    .filter((l) => l.length >= 3 && /[A-Za-z]/.test(l) && !l.includes('.'));
  return [...new Set(literals)].slice(0, MAX_LITERALS);
}

/** Offsets of `literal` in `text` where it stands alone: no word character or hyphen glued to either end. */
export function literalOffsets(text: string, literal: string): number[] {
  const offsets: number[] = [];
  const glued = /[\w-]/;
  for (let at = text.indexOf(literal); at >= 0; at = text.indexOf(literal, at + 1)) {
    const before = at > 0 ? text[at - 1] : '';
    const after = text[at + literal.length] ?? '';
    if ((before && glued.test(before) && glued.test(literal[0] ?? '')) || (after && glued.test(after))) continue;
    offsets.push(at);
  }
  return offsets;
}

/** What the literal retriever needs of the lexical store: the files whose words include all of the given ones. */
export interface LiteralStore {
  filesWithAll(words: string[]): string[];
}

/**
 * Finds the definitions that contain a code-like span of the task exactly as written, weighted by its rarity: a
 * flag spelled in two files of a hundred says more than a word of every file, and a literal in more than
 * `maxFiles` files votes for nothing. The lexical store's FTS5 index narrows the files to read; each is then
 * checked as written, and every hit is credited to the innermost definition spanning its line.
 */
export function createLiteralRetriever(
  options: LiteralOptions,
  storeFor: (index: RetrievalIndex) => LiteralStore,
): Retriever {
  return {
    name: 'literal',
    phase: 'primary',
    async retrieve(query, { index }) {
      const literals = taskLiterals(query);
      if (literals.length === 0) return [];
      const store = storeFor(index);
      const total = Math.max(1, index.files().length);
      const scores = new Map<string, { score: number; found: string[] }>();
      for (const literal of literals) {
        const words = codeText(literal).split(' ').filter(Boolean);
        const hits: { path: string; lines: number[] }[] = [];
        for (const path of store.filesWithAll(words)) {
          const text = index.fileText(path);
          if (text === undefined) continue;
          const offsets = literalOffsets(text, literal);
          if (offsets.length > 0) {
            const lines = new LineIndex(text);
            hits.push({ path, lines: offsets.map((offset) => lines.point(offset).row + 1) });
          }
          if (hits.length > options.maxFiles) break;
        }
        if (hits.length === 0 || hits.length > options.maxFiles) continue;
        const weight = Math.log(1 + total / hits.length);
        for (const { path, lines } of hits) {
          // Tests and vendored code spell the literal too (they count in its rarity) but are not what a task asks for.
          if (index.isTestFile?.(path) || index.fileClass?.(path)) continue;
          const credited = new Set<string>();
          const defs = index.definitionsIn(path);
          for (const line of lines) {
            const def = innermostRange(defs, line) ?? documented(defs, line) ?? largestRange(defs);
            if (def) credited.add(def.def_uid);
          }
          for (const uid of credited) {
            const entry = scores.get(uid) ?? { score: 0, found: [] };
            entry.score += weight;
            entry.found.push(literal);
            scores.set(uid, entry);
          }
        }
      }
      const out: RetrieverCandidate[] = [...scores].map(([uid, { score, found }]) => ({
        def_uid: uid,
        score,
        why: `as written: ${found.join(', ')}`,
      }));
      out.sort((a, b) => b.score - a.score || a.def_uid.localeCompare(b.def_uid));
      return out.slice(0, options.limit);
    },
  };
}

/** Lines above a definition that still belong to it: its doc comment and attributes (`/// -c/--count`). */
const DOC_LINES = 3;

/** The definition a line outside every definition documents: the first one starting just below it. */
function documented(defs: RetrievalDefinition[], line: number): RetrievalDefinition | undefined {
  let best: RetrievalDefinition | undefined;
  for (const def of defs)
    if (def.start_line > line && def.start_line - line <= DOC_LINES && (!best || def.start_line < best.start_line))
      best = def;
  return best;
}
