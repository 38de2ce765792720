import {
  definePlugin,
  identifierWords,
  type RetrievalQuery,
  type Retriever,
  type RetrieverCandidate,
} from '@agentgov/core';
import { nameTable, type NamedDefinitions, type NameTable } from './name-table.js';

export const NAME = 'retriever-term';

export interface TermOptions {
  /** Candidates returned per query (default 200). */
  limit: number;
}

/** Two words match when equal, or when the shorter (4+ letters) starts the longer: `serialize` ~ `serializer`. */
function wordsMatch(a: string, b: string): boolean {
  if (a === b) return true;
  return a.length <= b.length ? a.length >= 4 && b.startsWith(a) : b.length >= 4 && a.startsWith(b);
}

/**
 * Scores definition names against the task's words. A whole-name match (the name is a term or an
 * identifier of the task) scores 0.9–1, divided by √(definitions sharing that name); a partial match scores by the
 * share of the name's words
 * the task covers, weighted by how rare those words are among all names.
 */
export function scoreNames(query: RetrievalQuery, table: NameTable, limit: number): RetrieverCandidate[] {
  const identifiers = new Set(query.identifiers.map((i) => i.split('.').pop() ?? i));
  const dotted = query.identifiers.filter((i) => i.includes('.')).map((i) => i.toLowerCase());
  const wholeNames = new Set([...query.terms, ...[...identifiers].map((i) => i.toLowerCase())]);
  const words = [
    ...new Set([
      ...query.terms.flatMap((t) => identifierWords(t)),
      ...query.identifiers.flatMap((i) => identifierWords(i)),
    ]),
  ];
  const total = table.total || 1;
  const idf = (word: string) => Math.log(1 + total / (table.df.get(word) ?? 1)) / Math.log(1 + total);
  // A name many definitions share says little about each of them.
  const shared = new Map<string, number>();
  for (const named of table.names)
    if (identifiers.has(named.name) || wholeNames.has(named.lower))
      shared.set(named.lower, (shared.get(named.lower) ?? 0) + named.defs.length);
  const rarity = (lower: string) => 1 / Math.sqrt(shared.get(lower) ?? 1);
  // Names share their words: whether a name word matches a task word is decided once per word and call.
  const matching = new Map<string, boolean>();
  const matches = (word: string): boolean => {
    let found = matching.get(word);
    if (found === undefined) {
      found = words.some((w) => wordsMatch(w, word));
      matching.set(word, found);
    }
    return found;
  };
  /** What a name scores by itself (the same for every definition bearing it), or null. */
  const byName = (named: NamedDefinitions): { score: number; why: string } | null => {
    if (wholeNames.has(named.lower))
      return { score: 0.9 * Math.max(0.5, idf(named.lower)) * rarity(named.lower), why: `name = ${named.lower}` };
    if (named.words.length === 0) return null;
    let covered = 0;
    let weight = 0;
    const matched: string[] = [];
    for (const word of named.words) {
      if (!matches(word)) continue;
      covered += 1;
      weight += idf(word);
      matched.push(word);
    }
    if (covered === 0) return null;
    const coverage = covered / named.words.length;
    if (coverage < 0.5 && covered < 2) return null;
    return { score: 0.75 * coverage * (weight / covered) + 0.05 * (covered - 1), why: `words ${matched.join(', ')}` };
  };
  const out: RetrieverCandidate[] = [];
  for (const named of table.names) {
    if (identifiers.has(named.name)) {
      for (const def of named.defs)
        out.push({ def_uid: def.def_uid, score: rarity(named.lower), why: `name = ${named.name}` });
      continue;
    }
    let own: { score: number; why: string } | null | undefined;
    for (const def of named.defs) {
      if (dotted.some((d) => def.qualified === d || def.qualified.endsWith(`.${d}`))) {
        out.push({ def_uid: def.def_uid, score: 1, why: `qualified name = ${def.qualified}` });
        continue;
      }
      if (own === undefined) own = byName(named);
      if (own) out.push({ def_uid: def.def_uid, ...own });
    }
  }
  return best(out, limit);
}

/**
 * The first `limit` candidates by score, then uid. Candidates scoring below the limit-th best score cannot be among
 * them, so only the rest are sorted (a common word in the task matches tens of thousands of names).
 */
function best(out: RetrieverCandidate[], limit: number): RetrieverCandidate[] {
  let kept = out;
  if (out.length > limit && limit > 0) {
    const scores = Float64Array.from(out, (candidate) => candidate.score).sort();
    const threshold = scores[scores.length - limit]!;
    kept = out.filter((candidate) => candidate.score >= threshold);
  }
  kept.sort((a, b) => b.score - a.score || a.def_uid.localeCompare(b.def_uid));
  return kept.slice(0, limit);
}

export function createTermRetriever(options: TermOptions): Retriever {
  return {
    name: 'term',
    phase: 'primary',
    async retrieve(query, { index }) {
      return scoreNames(query, nameTable(index), options.limit);
    },
  };
}

export default definePlugin<TermOptions>({
  name: NAME,
  optionsSchema: {
    type: 'object',
    properties: { limit: { type: 'integer', minimum: 1, default: 200 } },
    additionalProperties: false,
  },
  apply(hooks, { options }) {
    const retriever = createTermRetriever({ limit: options.limit ?? 200 });
    hooks.retrievers.tap(NAME, (registry) => registry.add(retriever));
  },
});
