import type { CandidatePool, RetrievalDefinition, RetrievalIndex } from '@agentgov/core';

/** One retriever's opinion of a candidate, with its rank among that retriever's candidates (1 = best). */
export interface Signal {
  score: number;
  rank: number;
  why?: string;
}

/** A candidate after fusion: its definition, every retriever's signal, and the fused score. */
export interface RankedCandidate {
  def: RetrievalDefinition;
  signals: Record<string, Signal>;
  /** Retrievers (expansion excluded) that rank it within their top `AGREEMENT_DEPTH`. */
  agreement: number;
  explicit: boolean;
  /** How strongly it was named: 1 for a seed or pin, less for an identifier or path in the task, 0 if not named. */
  named: number;
  score: number;
  /** Set by the priors when the candidate was demoted as vendored or generated code: what says so. */
  demoted?: string;
  /** Set by the priors when the task's scope names the candidate's workspace member or spells its path: which. */
  scoped?: string;
}

export interface FusionWeights {
  /** Reciprocal-rank-fusion constant: smaller favours each retriever's top ranks. */
  k: number;
  /** Per-retriever weight; unknown retrievers (third-party plugins) weigh 1. */
  retriever: Record<string, number>;
  /** Multiplier per extra agreeing retriever. */
  agreement: number;
  /**
   * Added for a candidate the caller named (seed, pin, path or existing identifier), times how strongly it was named
   * (0–1).
   */
  explicit: number;
}

// Tuned on the visible bench sets (bench/recon/tune.mjs over bench/recon/pools.mjs dumps): the
// whole-file BM25 view is the strongest single signal there, so its vote weighs most; term matches
// on names largely repeat what lexical and symbol already say, so they weigh less; graph expansion
// (callers, importers of what the task names) finds the files that use a named symbol. A code-like span of the task
// found as written in a few files (`literal`: a flag, a quoted name) is nearly a pointer, so its vote weighs most
// (ripgrep's flags file, named by `-l/--files-with-matches`; bench/recon/RESULTS.md, issue 32).
export const DEFAULT_WEIGHTS: FusionWeights = {
  k: 10,
  retriever: { lexical: 1, lexical_file: 2, term: 0.5, symbol: 1.2, graph: 1, hub: 0.25, literal: 4 },
  agreement: 0.3,
  explicit: 0.5,
};

export const AGREEMENT_DEPTH = 30;

/** Ranks every retriever's candidates by score (ties by def_uid, so the order is deterministic). */
export function rankSignals(pool: CandidatePool): Map<string, Map<string, Signal>> {
  const ranked = new Map<string, Map<string, Signal>>();
  for (const [retriever, candidates] of pool) {
    const ordered = [...candidates.values()].sort((a, b) => b.score - a.score || a.def_uid.localeCompare(b.def_uid));
    const signals = new Map<string, Signal>();
    ordered.forEach((candidate, i) =>
      signals.set(candidate.def_uid, {
        score: candidate.score,
        rank: i + 1,
        ...(candidate.why ? { why: candidate.why } : {}),
      }),
    );
    ranked.set(retriever, signals);
  }
  return ranked;
}

/**
 * Reciprocal-rank fusion plus agreement and explicit-mention boosts. Pure: the same pool always
 * gives the same order. Candidates whose definition is no longer in the index are dropped and counted.
 */
export function fuse(
  pool: CandidatePool,
  index: Pick<RetrievalIndex, 'definition'>,
  expandRetrievers: ReadonlySet<string>,
  weights: FusionWeights = DEFAULT_WEIGHTS,
): { ranked: RankedCandidate[]; dropped: number } {
  const signals = rankSignals(pool);
  // How strongly each candidate was named: a seed or pin (score 1) beats an identifier naming several definitions.
  const explicitStrength = new Map<string, number>();
  for (const candidates of pool.values()) {
    for (const c of candidates.values())
      if (c.explicit)
        explicitStrength.set(
          c.def_uid,
          Math.max(explicitStrength.get(c.def_uid) ?? 0, Math.min(1, Math.max(0.1, c.score))),
        );
  }
  const byUid = new Map<string, RankedCandidate>();
  const missing = new Set<string>();
  for (const [retriever, perDef] of signals) {
    const weight = weights.retriever[retriever] ?? 1;
    for (const [uid, signal] of perDef) {
      let entry = byUid.get(uid);
      if (!entry) {
        const def = index.definition(uid);
        if (!def) {
          missing.add(uid);
          continue;
        }
        entry = {
          def,
          signals: {},
          agreement: 0,
          explicit: explicitStrength.has(uid),
          named: explicitStrength.get(uid) ?? 0,
          score: 0,
        };
        byUid.set(uid, entry);
      }
      entry.signals[retriever] = signal;
      entry.score += weight / (weights.k + signal.rank);
      if (!expandRetrievers.has(retriever) && signal.rank <= AGREEMENT_DEPTH) entry.agreement += 1;
    }
  }
  const ranked = [...byUid.values()];
  for (const entry of ranked) {
    entry.score *= 1 + weights.agreement * Math.max(0, entry.agreement - 1);
    if (entry.explicit) entry.score += weights.explicit * (explicitStrength.get(entry.def.def_uid) ?? 0);
  }
  ranked.sort((a, b) => b.score - a.score || a.def.def_uid.localeCompare(b.def.def_uid));
  return { ranked, dropped: missing.size };
}
