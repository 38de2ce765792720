/** Why the result list ends where it does; reported in `metrics.cutoff`. */
export type CutoffReason = 'elbow' | 'max_results' | 'pool_exhausted';

export interface CutoffBounds {
  /** Never cut above this many results (unless the pool is smaller). */
  min: number;
  /** Never return more than this many results. */
  max: number;
  /** Smallest relative drop between neighbours that counts as an elbow. */
  minGap: number;
}

export const DEFAULT_CUTOFF: CutoffBounds = { min: 8, max: 30, minGap: 0.25 };

/**
 * Score-gap elbow: keep everything above the largest relative drop between neighbouring scores
 * within [min, max]; when no drop is large enough, keep up to `max`. Scores are sorted descending.
 */
export function cutoff(
  scores: readonly number[],
  bounds: CutoffBounds = DEFAULT_CUTOFF,
): { keep: number; reason: CutoffReason; gap: number } {
  if (scores.length <= bounds.min) return { keep: scores.length, reason: 'pool_exhausted', gap: 0 };
  let best = { at: -1, gap: 0 };
  const last = Math.min(bounds.max, scores.length - 1);
  for (let i = bounds.min; i <= last; i += 1) {
    const above = scores[i - 1] ?? 0;
    const below = scores[i] ?? 0;
    const gap = above > 0 ? (above - below) / above : 0;
    if (gap > best.gap) best = { at: i, gap };
  }
  if (best.at > 0 && best.gap >= bounds.minGap) return { keep: best.at, reason: 'elbow', gap: round(best.gap) };
  if (scores.length <= bounds.max) return { keep: scores.length, reason: 'pool_exhausted', gap: round(best.gap) };
  return { keep: bounds.max, reason: 'max_results', gap: round(best.gap) };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
