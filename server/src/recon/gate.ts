import { identifierWords, type RetrievalIndex, type RetrievalQuery } from '@agentgov/core';
import type { RankedCandidate } from './fuse.js';
import { distinctiveWords } from './vocabulary.js';

export type Gate = 'OK' | 'UNSAT' | 'BROAD' | 'AMBIG';

/** The explainable features the gate decides from; reported in `metrics.gate_features`. */
export interface GateFeatures {
  pool_size: number;
  /** Identifiers and paths written in the task. */
  mentions: number;
  mentions_found: string[];
  mentions_missing: string[];
  /**
   * For a missing qualified mention (`app.run`), the parts of it the repository lacks (`app`): a qualified name
   * counts as found only when the repository has every part of it, not by its last part alone.
   */
  mentions_missing_parts: Record<string, string[]>;
  /** Seeds and pins given by the caller. */
  explicit_inputs: number;
  /** Candidates in the top window that were named or that two retrievers agree on with a whole-name match. */
  strong: number;
  /** Distinct directories among the top window. */
  spread: number;
  /** Among the best candidate of each file in the top window, the last score over the first: 1 = flat. */
  flatness: number;
  /** The key term matching whole definition names in several subsystems, if any. */
  ambiguous_term: string | null;
  subsystems: string[];
  /** Distinctive words of the task (see distinctiveWords) the repository has, and those it lacks (at most 8 listed). */
  words_known: number;
  words_missing: string[];
  /**
   * How rare the task's terms are in this repository: the mean over terms of ln((files with the term + 0.5) /
   * files). Near 0 when the task's words are everywhere here; about −5 when they are in hardly any file. Null when
   * the index cannot count words per file.
   */
  word_rarity: number | null;
}

export interface GateThresholds {
  window: number;
  broadSpread: number;
  broadFlatness: number;
  ambigRatio: number;
  /** Plain terms are only key terms when the task has at most this many. */
  ambigMaxTerms: number;
  /** A term-retriever score at or above this is a whole-name match. */
  wholeName: number;
  /** UNSAT when at least this many distinctive words are missing from the repository... */
  offTopicMissing: number;
  /** ... and at least this many times as many as it has. */
  offTopicRatio: number;
  /**
   * In that count, a qualified name of the task that the repository has as written (`req.hostname`) weighs as much
   * as this many distinctive words: it names this code, where a word may be anyone's.
   */
  qualifiedWeight: number;
  /**
   * A task naming only missing identifiers is UNSAT when it has at most this many terms: a name lookup, not a
   * description.
   */
  lookupMaxTerms: number;
  /**
   * A second rule for short tasks: UNSAT when the task's missing distinctive words and missing identifiers number
   * at least `faintMissing`, what it has of both is at most `faintKnown` (and half the missing), and its terms are
   * rare here (`word_rarity` at or below `faintRarity`). Tuned on the visible sets and off-topic tasks
   * (bench/recon/gate-dump.mjs): a task for another repository names a few of its own words and the rest are
   * words this one hardly uses.
   */
  faintMissing: number;
  faintKnown: number;
  faintRarity: number;
}

export const DEFAULT_GATE: GateThresholds = {
  window: 10,
  broadSpread: 5,
  broadFlatness: 0.4,
  ambigRatio: 0.7,
  ambigMaxTerms: 3,
  wholeName: 0.8,
  offTopicMissing: 3,
  offTopicRatio: 3,
  qualifiedWeight: 3,
  lookupMaxTerms: 4,
  faintMissing: 3,
  faintKnown: 2,
  faintRarity: -4.5,
};

/** Missing distinctive words reported at most. */
const MAX_MISSING_WORDS = 8;

type GateIndex = Pick<RetrievalIndex, 'isKnownName' | 'files' | 'isRepositoryWord' | 'wordFileCount'>;

/** Decides the gate from features of the query, the pool and the fused ranking. Deterministic. */
export function decideGate(
  query: RetrievalQuery,
  ranked: readonly RankedCandidate[],
  index: GateIndex,
  t: GateThresholds = DEFAULT_GATE,
): { gate: Gate; features: GateFeatures } {
  const top = ranked.slice(0, t.window);
  const { found, missing, missingParts } = checkMentions(query, index);
  const strong = top.filter(
    (c) => c.explicit || (c.agreement >= 2 && (c.signals['term']?.score ?? 0) >= t.wholeName),
  ).length;
  const ambiguity = findAmbiguity(query, ranked, t);
  const distinctive = distinctiveWords(contentTerms(query));
  const has = (word: string) => index.isRepositoryWord?.(word) ?? index.isKnownName(word);
  const wordsMissing = distinctive.filter((word) => !has(word));
  const features: GateFeatures = {
    pool_size: ranked.length,
    mentions: found.length + missing.length,
    mentions_found: found,
    mentions_missing: missing,
    mentions_missing_parts: missingParts,
    explicit_inputs: query.seeds.length + query.pins.length,
    strong,
    spread: new Set(top.map((c) => dirname(c.def.path))).size,
    flatness: flatness(top),
    ambiguous_term: ambiguity?.term ?? null,
    subsystems: ambiguity?.subsystems ?? [],
    words_known: distinctive.length - wordsMissing.length,
    words_missing: wordsMissing.slice(0, MAX_MISSING_WORDS),
    word_rarity: wordRarity(query.terms, index),
  };
  const missingCount = wordsMissing.length;
  return { gate: choose(features, missingCount, query.terms.length, t), features };
}

/**
 * UNSAT when nothing matched, when the task's distinctive words are mostly ones this repository does not
 * have (a task written for another codebase), when a few of them and of its identifiers are missing and the rest of
 * its words are rare here, or when a short task only names things that do not exist (not even their parts apart).
 * A commit message naming the function it adds is not UNSAT: the rest of its words fit the repository.
 */
function choose(f: GateFeatures, missing: number, terms: number, t: GateThresholds): Gate {
  if (f.pool_size === 0) return 'UNSAT';
  // A qualified name of the task that this repository has as written is evidence the task is about it.
  const qualified = f.mentions_found.filter(isQualifiedName).length;
  if (
    f.explicit_inputs === 0 &&
    missing >= t.offTopicMissing &&
    missing >= t.offTopicRatio * (f.words_known + t.qualifiedWeight * qualified)
  )
    return 'UNSAT';
  const absent = missing + f.mentions_missing.length;
  const present = f.words_known + f.mentions_found.length;
  if (
    f.explicit_inputs === 0 &&
    f.word_rarity !== null &&
    f.word_rarity <= t.faintRarity &&
    absent >= t.faintMissing &&
    present <= t.faintKnown &&
    absent >= 2 * present
  )
    return 'UNSAT';
  if (
    f.explicit_inputs === 0 &&
    f.mentions > 0 &&
    f.mentions_found.length === 0 &&
    !f.mentions_missing.some((m) => partsExistApart(f, m)) &&
    f.strong === 0 &&
    f.words_known === 0 &&
    terms <= t.lookupMaxTerms
  )
    return 'UNSAT';
  if (f.explicit_inputs === 0 && f.ambiguous_term) return 'AMBIG';
  if (
    f.explicit_inputs === 0 &&
    f.mentions_found.length === 0 &&
    f.strong === 0 &&
    f.spread >= t.broadSpread &&
    f.flatness >= t.broadFlatness
  )
    return 'BROAD';
  return 'OK';
}

/**
 * A qualified mention not written so anywhere, though every part of it exists (`res.header` where `res` and
 * `header` do): a name a change may be adding to this code, so not one a lookup can call absent.
 */
function partsExistApart(f: GateFeatures, mention: string): boolean {
  return Object.hasOwn(f.mentions_missing_parts, mention) && f.mentions_missing_parts[mention]?.length === 0;
}

/** `req.hostname`, `z.string`: dotted, not a path, and not an abbreviation of single letters (`e.g`, `i.e`). */
function isQualifiedName(mention: string): boolean {
  const parts = mention.split('.').filter(Boolean);
  return !mention.includes('/') && parts.length >= 2 && parts.some((part) => part.length > 1);
}

/** See GateFeatures.word_rarity. */
function wordRarity(terms: readonly string[], index: GateIndex): number | null {
  const files = index.files().length;
  if (!index.wordFileCount || terms.length === 0 || files === 0) return null;
  const count = index.wordFileCount.bind(index);
  const sum = terms.reduce((total, term) => total + Math.log((count(term) + 0.5) / files), 0);
  return Math.round((sum / terms.length) * 100) / 100;
}

/**
 * The terms of the task's own content: not the words of commit trailers (`Co-authored-by: Name <mail>`),
 * e-mail addresses or URLs, which name people and hosts rather than anything in a repository.
 */
function contentTerms(query: RetrievalQuery): string[] {
  const content = query.task
    .replace(/^[ \t]*[A-Za-z][\w-]*-by:.*$/gim, ' ')
    .replace(/\S+@\S+/g, ' ')
    .replace(/\b(?:https?|ftp):\/\/\S+/gi, ' ');
  const words = new Set<string>();
  for (const word of content.split(/[^A-Za-z0-9_]+/)) {
    words.add(word.toLowerCase());
    for (const part of identifierWords(word)) words.add(part);
  }
  return query.terms.filter((term) => words.has(term));
}

/**
 * Identifiers and paths of the task, split into those the index knows and those it does not. A qualified
 * identifier (`req.hostname`, `app.run`, `z.string`) is known when the repository has it as written: every part of
 * it is a name of the repository (a definition, a reference or a word of its files) and the qualified text occurs
 * in a file, so neither `app.run` in a repository that has `run` but no `app`, nor `self.invoke` where `self` and
 * `invoke` only occur apart, is found. The parts missing are reported for the hint.
 */
export function checkMentions(
  query: RetrievalQuery,
  index: GateIndex,
): { found: string[]; missing: string[]; missingParts: Record<string, string[]> } {
  const found: string[] = [];
  const missing: string[] = [];
  const missingParts: Record<string, string[]> = {};
  const files = index.files();
  for (const identifier of query.identifiers) {
    const parts = identifier.split('.').filter(Boolean);
    if (parts.length < 2) {
      (index.isKnownName(parts[0] ?? identifier) ? found : missing).push(identifier);
      continue;
    }
    const absent = parts.filter((part) => !index.isKnownName(part));
    // Every part exists: is it written so in a file (`req.hostname`), or only apart (`self.invoke`)?
    if (absent.length === 0 && index.isKnownName(identifier)) found.push(identifier);
    else {
      missing.push(identifier);
      missingParts[identifier] = [...new Set(absent)];
    }
  }
  for (const path of query.paths) {
    const clean = path.replace(/\/$/, '');
    const known = files.some(
      (file) =>
        file === clean || file.endsWith(`/${clean}`) || file.startsWith(`${clean}/`) || clean.endsWith(`/${file}`),
    );
    (known ? found : missing).push(path);
  }
  return { found, missing, missingParts };
}

/**
 * A key term (an identifier of the task, or a plain term of a short task) is ambiguous when whole
 * definitions of that name rank near the top in two or more subsystems with comparable scores.
 */
function findAmbiguity(
  query: RetrievalQuery,
  ranked: readonly RankedCandidate[],
  t: GateThresholds,
): { term: string; subsystems: string[] } | null {
  const keys = [
    ...query.identifiers.map((i) => i.split('.').pop() ?? i),
    ...(query.terms.length <= t.ambigMaxTerms ? query.terms : []),
  ];
  const top = ranked.slice(0, t.window);
  const taskWords = new Set(query.task.toLowerCase().split(/[^a-z0-9_]+/));
  for (const key of new Set(keys.map((k) => k.toLowerCase()))) {
    const matches = top.filter((c) => c.def.name.toLowerCase() === key);
    if (matches.length < 2) continue;
    const labels = subsystemLabels(matches.map((c) => c.def.path));
    if (!labels) continue;
    const best = new Map<string, number>();
    matches.forEach((c, i) => {
      const label = labels[i] as string;
      best.set(label, Math.max(best.get(label) ?? 0, c.score));
    });
    const scores = [...best.entries()].sort((a, b) => b[1] - a[1]);
    const [first, second] = scores;
    if (!first || !second || second[1] < first[1] * t.ambigRatio) continue;
    const close = scores.filter(([, s]) => s >= first[1] * t.ambigRatio).map(([label]) => label);
    // The task may already say which: "fix(v4): …" names the v4 subsystem among v3 and v4.
    if (close.filter((label) => taskWords.has((label.split('/').pop() ?? '').toLowerCase())).length === 1) continue;
    return { term: key, subsystems: close };
  }
  return null;
}

/** Labels each path by the first directory below the paths' common directory; null when all share one directory. */
export function subsystemLabels(paths: readonly string[]): string[] | null {
  const dirs = paths.map((p) => dirname(p).split('/').filter(Boolean));
  const first = dirs[0] ?? [];
  let common = 0;
  while (common < first.length && dirs.every((d) => d[common] === first[common])) common += 1;
  const base = first.slice(0, common).join('/') || '.';
  const labels = dirs.map((d) => (d.length > common ? d.slice(0, common + 1).join('/') : base));
  if (new Set(labels).size < 2) return null;
  return labels;
}

function flatness(top: readonly RankedCandidate[]): number {
  const perFile = new Map<string, number>();
  for (const c of top) if (!perFile.has(c.def.path)) perFile.set(c.def.path, c.score);
  const scores = [...perFile.values()];
  if (scores.length < 2) return 1;
  return round((scores[scores.length - 1] ?? 0) / (scores[0] || 1));
}

function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '.' : path.slice(0, slash);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
