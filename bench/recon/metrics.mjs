// File-level Recall@k and reciprocal rank of gold files among ranked files, and latency percentiles.
export function fileMetrics(rankedFiles, gold) {
  const position = new Map();
  rankedFiles.forEach((f, i) => {
    if (!position.has(f)) position.set(f, i + 1);
  });
  const ranks = gold.map((g) => position.get(g)).filter((r) => r !== undefined);
  const recall = (k) => ranks.filter((r) => r <= k).length / gold.length;
  return { r1: recall(1), r5: recall(5), r10: recall(10), rr: ranks.length ? 1 / Math.min(...ranks) : 0 };
}

/** Files in order of first appearance of their spans. */
export function filesOf(spans) {
  const seen = new Set();
  for (const span of spans) seen.add(span.path);
  return [...seen];
}

export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function mean(values) {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}
