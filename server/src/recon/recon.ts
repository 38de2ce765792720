import type { CandidatePool, RetrievalIndex, RetrievalQuery } from '@agentgov/core';
import { cutoff, type CutoffReason } from './cutoff.js';
import { fuse } from './fuse.js';
import { applyPriors, DEFAULT_PRIORS } from './priors.js';
import { decideGate, subsystemLabels, type Gate, type GateFeatures } from './gate.js';
import { reconHint } from './hints.js';
import type { RetrievalRunner } from './retrieval.js';
import { buildSpans, DEFAULT_SNIPPET_BUDGET, type ReconSpan, type SnippetBudget } from './snippets.js';

export interface ReconMetrics {
  timings_ms: Record<string, number>;
  retriever_ms: Record<string, number>;
  pool_size: number;
  /** Per retriever: candidates it produced, and how many of them made the final results. */
  contributions: Record<string, { candidates: number; in_results: number }>;
  cutoff: { reason: CutoffReason; kept: number; gap: number };
  gate_features: GateFeatures;
  snippets: { full: number; downgraded: number; chars: number };
  /** Candidates whose definition vanished from the index between retrieval and ranking. */
  dropped: number;
}

/** One part a BROAD task would split into: a subsystem of the results, its share and its best files. */
export interface ReconSubtask {
  subsystem: string;
  results: number;
  files: string[];
}

export interface ReconResult {
  gate: Gate;
  results: ReconSpan[];
  /** BROAD only: the subsystems the results fall into, largest first — the narrower tasks to ask. */
  decomposition?: ReconSubtask[];
  metrics: ReconMetrics;
  hint: string;
}

/** retrieve → gate → rank → cutoff → snippets, each stage timed. `snippets` bounds the code read for the answer. */
export async function runRecon(
  query: RetrievalQuery,
  runner: RetrievalRunner,
  index: RetrievalIndex,
  snippets: SnippetBudget = DEFAULT_SNIPPET_BUDGET,
): Promise<ReconResult> {
  const timings: Record<string, number> = {};
  const stage = <T>(name: string, fn: () => T): T => {
    const started = performance.now();
    const value = fn();
    timings[name] = Math.round((performance.now() - started) * 10) / 10;
    return value;
  };
  const started = performance.now();
  const retrieval = await runner.retrieve(query, index);
  timings['retrieve'] = Math.round((performance.now() - started) * 10) / 10;
  // Fusion feeds both the gate's features and the ranking; it is timed as `rank`.
  const { ranked, dropped } = stage('rank', () => {
    const fused = fuse(retrieval.pool, index, retrieval.expand);
    return { ranked: applyPriors(fused.ranked, query, DEFAULT_PRIORS, index), dropped: fused.dropped };
  });
  const { gate, features } = stage('gate', () => decideGate(query, ranked, index));
  const cut = stage('cutoff', () => cutoff(ranked.map((c) => c.score)));
  const kept = ranked.slice(0, cut.keep);
  const built = stage('snippets', () => buildSpans(kept, index, snippets));
  const decomposition = gate === 'BROAD' ? decompose(kept.map((c) => c.def.path)) : undefined;
  return {
    gate,
    results: built.spans,
    ...(decomposition ? { decomposition } : {}),
    hint: reconHint(gate, features, kept[0]?.def.qualified_name),
    metrics: {
      timings_ms: timings,
      retriever_ms: retrieval.timings,
      pool_size: ranked.length,
      contributions: contributions(retrieval.pool, new Set(kept.map((c) => c.def.def_uid))),
      cutoff: { reason: cut.reason, kept: cut.keep, gap: cut.gap },
      gate_features: features,
      snippets: {
        full: built.spans.filter((s) => s.snippet !== undefined).length,
        downgraded: built.downgraded,
        chars: built.chars,
      },
      dropped,
    },
  };
}

/** Subtasks shown at most: more is no longer a decomposition. */
const MAX_SUBTASKS = 6;

/**
 * Groups result paths (in rank order) by subsystem — the first folder below their common folder —
 * largest group first; null when they all sit in one folder.
 */
export function decompose(paths: readonly string[]): ReconSubtask[] | undefined {
  const labels = subsystemLabels(paths);
  if (!labels) return undefined;
  const groups = new Map<string, ReconSubtask>();
  paths.forEach((path, i) => {
    const label = labels[i] as string;
    const group = groups.get(label) ?? { subsystem: label, results: 0, files: [] };
    group.results += 1;
    if (!group.files.includes(path) && group.files.length < 3) group.files.push(path);
    groups.set(label, group);
  });
  return [...groups.values()].sort((a, b) => b.results - a.results).slice(0, MAX_SUBTASKS);
}

function contributions(pool: CandidatePool, kept: Set<string>): ReconMetrics['contributions'] {
  const out: ReconMetrics['contributions'] = {};
  for (const [name, candidates] of pool) {
    let inResults = 0;
    for (const uid of candidates.keys()) if (kept.has(uid)) inResults += 1;
    out[name] = { candidates: candidates.size, in_results: inResults };
  }
  return out;
}

/** The dev-mode view: every candidate with each retriever's score and rank, unsorted and untruncated. */
export async function rawSignals(
  query: RetrievalQuery,
  runner: RetrievalRunner,
  index: RetrievalIndex,
): Promise<{ candidates: RawCandidate[]; retrievers: string[]; timings_ms: Record<string, number> }> {
  const { pool, timings } = await runner.retrieve(query, index);
  const byUid = new Map<string, RawCandidate>();
  for (const [retriever, candidates] of pool) {
    const ordered = [...candidates.values()].sort((a, b) => b.score - a.score || a.def_uid.localeCompare(b.def_uid));
    ordered.forEach((candidate, i) => {
      let entry = byUid.get(candidate.def_uid);
      if (!entry) {
        const def = index.definition(candidate.def_uid);
        entry = {
          def_uid: candidate.def_uid,
          path: def?.path ?? null,
          name: def?.name ?? null,
          kind: def?.kind ?? null,
          signals: {},
        };
        byUid.set(candidate.def_uid, entry);
      }
      entry.signals[retriever] = {
        score: candidate.score,
        rank: i + 1,
        ...(candidate.why ? { why: candidate.why } : {}),
        ...(candidate.explicit ? { explicit: true } : {}),
      };
    });
  }
  return { candidates: [...byUid.values()], retrievers: [...pool.keys()], timings_ms: timings };
}

export interface RawCandidate {
  def_uid: string;
  path: string | null;
  name: string | null;
  kind: string | null;
  signals: Record<string, { score: number; rank: number; why?: string; explicit?: boolean }>;
}
