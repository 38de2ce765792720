import type { RetrievalIndex } from '@agentgov/core';
import { distance } from 'fastest-levenshtein';

/** How many existing names an UNSAT answer suggests per missing name. */
const SUGGESTIONS = 3;
/** A suggestion further than this share of the longer name's length is not "near". */
const MAX_RELATIVE_DISTANCE = 0.5;

/** Distinct definition names of an index version, lower-cased once; rebuilt when the index changes. */
const namesByVersion = new Map<string, { name: string; lower: string; words: Set<string> }[]>();

/**
 * For each name the task wrote that the repository does not define, the existing definition names
 * nearest to it: by edit distance, or by sharing a word of a camelCase/snake_case split
 * (`frobnicateWidget` → `renderWidget`). Deterministic: ties go to the shorter, then alphabetical, name.
 */
export function nearestNames(
  missing: readonly string[],
  index: Pick<RetrievalIndex, 'version' | 'definitions'>,
): Record<string, string[]> {
  if (missing.length === 0) return {};
  const names = namesOf(index);
  const out: Record<string, string[]> = {};
  for (const wanted of missing) {
    const lower = wanted.toLowerCase();
    const words = wordsOf(wanted);
    const scored: { name: string; score: number }[] = [];
    for (const entry of names) {
      const edits = distance(lower, entry.lower) / Math.max(lower.length, entry.lower.length);
      let shared = 0;
      for (const word of words) if (word.length >= 3 && entry.words.has(word)) shared += 1;
      const score = shared > 0 ? Math.min(edits, 1 - shared / Math.max(words.size, entry.words.size)) : edits;
      if (score <= MAX_RELATIVE_DISTANCE) scored.push({ name: entry.name, score });
    }
    scored.sort((a, b) => a.score - b.score || a.name.length - b.name.length || a.name.localeCompare(b.name));
    out[wanted] = scored.slice(0, SUGGESTIONS).map((s) => s.name);
  }
  return out;
}

function namesOf(
  index: Pick<RetrievalIndex, 'version' | 'definitions'>,
): { name: string; lower: string; words: Set<string> }[] {
  const cached = namesByVersion.get(index.version);
  if (cached) return cached;
  const distinct = new Set<string>();
  for (const def of index.definitions()) if (def.kind !== 'module') distinct.add(def.name);
  const names = [...distinct].map((name) => ({ name, lower: name.toLowerCase(), words: wordsOf(name) }));
  namesByVersion.clear();
  namesByVersion.set(index.version, names);
  return names;
}

function wordsOf(name: string): Set<string> {
  return new Set(
    name
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean),
  );
}
