import { definePlugin, type GraphRelation, type RetrieverCandidate, type Retriever } from '@agentgov/core';

export const NAME = 'retriever-graph';

export interface GraphOptions {
  /** Start points taken at most (default 20). */
  maxStarts: number;
  /** Candidates returned (default 100). */
  limit: number;
  /** Depth within each primary retriever's ranking at which a signal counts toward the two needed (default 20). */
  signalDepth: number;
}

/** How much one hop along each relation passes on; callers/callees carry most. */
export const RELATION_WEIGHT: Record<GraphRelation, number> = { callee: 1, caller: 0.8, parent: 0.6, child: 0.5, importer: 0.4, imported: 0.4, sibling: 0.3 };

/**
 * Expansion over the reference, import and containment graphs. It starts only from candidates
 * that two retrievers found independently or that the caller named, so a hub that one retriever
 * likes does not flood the pool; PageRank is the prior of every reached definition.
 */
export function createGraphRetriever(options: GraphOptions): Retriever {
  return {
    name: 'graph',
    phase: 'expand',
    async retrieve(_query, { index, prior }) {
      if (!prior) return [];
      const votes = new Map<string, { signals: number; explicit: boolean }>();
      for (const candidates of prior.values()) {
        const ordered = [...candidates.values()].sort((a, b) => b.score - a.score).slice(0, options.signalDepth);
        for (const c of ordered) {
          const v = votes.get(c.def_uid) ?? { signals: 0, explicit: false };
          v.signals += 1;
          v.explicit ||= Boolean(c.explicit);
          votes.set(c.def_uid, v);
        }
        for (const c of candidates.values()) if (c.explicit) votes.set(c.def_uid, { signals: votes.get(c.def_uid)?.signals ?? 1, explicit: true });
      }
      const starts = [...votes.entries()]
        .filter(([, v]) => v.explicit || v.signals >= 2)
        .sort((a, b) => Number(b[1].explicit) - Number(a[1].explicit) || b[1].signals - a[1].signals || a[0].localeCompare(b[0]))
        .slice(0, options.maxStarts);
      const startSet = new Set(starts.map(([uid]) => uid));
      const reached = new Map<string, { score: number; why: string }>();
      for (const [uid, vote] of starts) {
        const strength = vote.explicit ? 1 : vote.signals / prior.size;
        for (const { def_uid, relation } of index.neighbors(uid)) {
          if (startSet.has(def_uid)) continue;
          const prior_ = Math.log1p(index.pagerank(def_uid));
          const gain = strength * RELATION_WEIGHT[relation] * (0.5 + prior_);
          const entry = reached.get(def_uid);
          if (entry) entry.score += gain;
          else reached.set(def_uid, { score: gain, why: `${relation} of ${uid}` });
        }
      }
      const out: RetrieverCandidate[] = [...reached.entries()].map(([def_uid, r]) => ({ def_uid, score: r.score, why: r.why }));
      out.sort((a, b) => b.score - a.score || a.def_uid.localeCompare(b.def_uid));
      return out.slice(0, options.limit);
    },
  };
}

export default definePlugin<GraphOptions>({
  name: NAME,
  optionsSchema: {
    type: 'object',
    properties: { maxStarts: { type: 'integer', minimum: 1, default: 20 }, limit: { type: 'integer', minimum: 1, default: 100 }, signalDepth: { type: 'integer', minimum: 1, default: 20 } },
    additionalProperties: false,
  },
  apply(hooks, { options }) {
    const retriever = createGraphRetriever({ maxStarts: options.maxStarts ?? 20, limit: options.limit ?? 100, signalDepth: options.signalDepth ?? 20 });
    hooks.retrievers.tap(NAME, (registry) => registry.add(retriever));
  },
});
