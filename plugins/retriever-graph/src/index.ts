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
export const RELATION_WEIGHT: Record<GraphRelation, number> = {
  callee: 1,
  caller: 0.8,
  parent: 0.6,
  child: 0.5,
  importer: 0.4,
  imported: 0.4,
  sibling: 0.3,
};

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
        for (const c of candidates.values())
          if (c.explicit) votes.set(c.def_uid, { signals: votes.get(c.def_uid)?.signals ?? 1, explicit: true });
      }
      const starts = [...votes.entries()]
        .filter(([, v]) => v.explicit || v.signals >= 2)
        .sort(
          (a, b) =>
            Number(b[1].explicit) - Number(a[1].explicit) || b[1].signals - a[1].signals || a[0].localeCompare(b[0]),
        )
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
      const out: RetrieverCandidate[] = [...reached.entries()].map(([def_uid, r]) => ({
        def_uid,
        score: r.score,
        why: r.why,
      }));
      out.sort((a, b) => b.score - a.score || a.def_uid.localeCompare(b.def_uid));
      return out.slice(0, options.limit);
    },
  };
}

/** Re-export hubs and package entry points: they import what they re-export or register. */
const HUB_FILE = /(^|\/)(index\.[cm]?[jt]sx?|__init__\.py|mod\.rs|lib\.rs)$/;
/** Error catalogs: imported by the code that raises their errors. */
const CATALOG_FILE = /(^|\/)(errors?|exceptions?)\.(py|[cm]?[jt]sx?)$/;

export interface HubOptions {
  /** Depth within each primary retriever's ranking at which a file counts as a strong candidate (default 10). */
  depth: number;
  /** Hubs returned at most (default 3), so they never flood an answer. */
  limit: number;
  /**
   * A hub needs at least this much strength from the candidates it links (default 1: one top-ranked file, or several
   * lower ones).
   */
  minScore: number;
}

/**
 * Import-graph signal for hub files: a re-export hub (`index.ts`, `__init__.py`) that imports strong
 * candidates, or an error catalog that strong candidates import, is offered with the summed strength
 * of those candidates (1/rank in each primary retriever). Only hubs, only linked to the top of the
 * primary rankings, and only a few: the hub gets a fair chance without flooding every answer.
 */
export function createHubRetriever(options: HubOptions): Retriever {
  return {
    name: 'hub',
    phase: 'expand',
    async retrieve(_query, { index, prior }) {
      if (!prior || !index.fileImports) return [];
      const strength = new Map<string, number>();
      for (const candidates of prior.values()) {
        const best = new Map<string, number>();
        const ordered = [...candidates.values()].sort(
          (a, b) => b.score - a.score || a.def_uid.localeCompare(b.def_uid),
        );
        for (const c of ordered) {
          const path = index.definition(c.def_uid)?.path;
          if (path === undefined || best.has(path)) continue;
          best.set(path, best.size + 1);
          if (best.size >= options.depth) break;
        }
        for (const [path, rank] of best) strength.set(path, (strength.get(path) ?? 0) + 1 / rank);
      }
      const hubs = new Map<string, { score: number; via: string[] }>();
      const credit = (hub: string, from: string, gain: number) => {
        if (hub === from) return;
        const entry = hubs.get(hub) ?? { score: 0, via: [] };
        entry.score += gain;
        entry.via.push(from);
        hubs.set(hub, entry);
      };
      for (const [path, gain] of strength) {
        const { imports, importers } = index.fileImports(path);
        for (const importer of importers) if (HUB_FILE.test(importer)) credit(importer, path, gain);
        for (const imported of imports) if (CATALOG_FILE.test(imported)) credit(imported, path, gain);
      }
      const out: RetrieverCandidate[] = [];
      for (const [path, hub] of hubs) {
        if (hub.score < options.minScore) continue;
        const def = index.definitionsIn(path)[0];
        if (!def) continue;
        const role = CATALOG_FILE.test(path) ? 'error catalog used by' : 're-exports';
        out.push({
          def_uid: def.def_uid,
          score: hub.score,
          why: `${role} ${hub.via.slice(0, 3).join(', ')}${hub.via.length > 3 ? ` +${hub.via.length - 3}` : ''}`,
        });
      }
      out.sort((a, b) => b.score - a.score || a.def_uid.localeCompare(b.def_uid));
      return out.slice(0, options.limit);
    },
  };
}

export default definePlugin<GraphOptions & HubOptions>({
  name: NAME,
  optionsSchema: {
    type: 'object',
    properties: {
      maxStarts: { type: 'integer', minimum: 1, default: 20 },
      limit: { type: 'integer', minimum: 1, default: 100 },
      signalDepth: { type: 'integer', minimum: 1, default: 20 },
      depth: { type: 'integer', minimum: 1, default: 10 },
      minScore: { type: 'number', minimum: 0, default: 1 },
    },
    additionalProperties: false,
  },
  apply(hooks, { options }) {
    const retriever = createGraphRetriever({
      maxStarts: options.maxStarts ?? 20,
      limit: options.limit ?? 100,
      signalDepth: options.signalDepth ?? 20,
    });
    const hub = createHubRetriever({ depth: options.depth ?? 10, limit: 3, minScore: options.minScore ?? 1 });
    hooks.retrievers.tap(NAME, (registry) => {
      registry.add(retriever);
      registry.add(hub);
    });
  },
});
