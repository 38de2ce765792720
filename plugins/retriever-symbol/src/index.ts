import {
  definePlugin,
  type RetrievalDefinition,
  type RetrievalIndex,
  type Retriever,
  type RetrieverCandidate,
} from '@agentgov/core';

export const NAME = 'retriever-symbol';

export interface SymbolOptions {
  /** An identifier naming more definitions than this is too common to count as an explicit mention (default 5). */
  maxExplicitMatches: number;
}

/** Definitions a symbol string names: exact name, or a dotted/qualified form ending in it. */
export function resolveSymbol(symbol: string, index: RetrievalIndex): RetrievalDefinition[] {
  const parts = symbol.split(/\.|::|#/).filter(Boolean);
  const last = parts[parts.length - 1];
  if (!last) return [];
  const named = index.definitionsNamed(last);
  if (parts.length === 1) return named;
  const qualified = named.filter(
    (d) =>
      d.qualified_name === symbol ||
      d.qualified_name.endsWith(`.${symbol}`) ||
      d.qualified_name.endsWith(`.${parts.slice(-2).join('.')}`),
  );
  return qualified.length > 0 ? qualified : named;
}

/** Indexed files a written path names: the path itself or any file whose path ends with it. */
export function resolvePath(path: string, index: RetrievalIndex): string[] {
  const clean = path.replace(/^\.?\//, '').replace(/\/$/, '');
  const files = index.files();
  const exact = files.filter((f) => f === clean);
  if (exact.length > 0) return exact;
  const suffix = files.filter((f) => f.endsWith(`/${clean}`) || clean.endsWith(`/${f}`));
  return suffix.length > 0 ? suffix : [];
}

/**
 * What the caller named: seeds and pins (always explicit), paths written in the task, and
 * identifiers of the task that exist in the index. Identifiers that don't exist produce nothing.
 */
export function createSymbolRetriever(options: SymbolOptions): Retriever {
  return {
    name: 'symbol',
    phase: 'primary',
    async retrieve(query, { index }) {
      const out = new Map<string, RetrieverCandidate>();
      const add = (def: RetrievalDefinition, score: number, why: string, explicit: boolean) => {
        const existing = out.get(def.def_uid);
        if (existing && existing.score >= score) return;
        out.set(def.def_uid, { def_uid: def.def_uid, score, why, explicit: explicit || Boolean(existing?.explicit) });
      };
      for (const seed of query.seeds) for (const def of resolveSymbol(seed, index)) add(def, 1, `seed ${seed}`, true);
      for (const pin of query.pins)
        for (const file of resolvePath(pin, index))
          for (const def of index.definitionsIn(file)) add(def, 1, `pin ${pin}`, true);
      for (const path of query.paths) {
        // A path that several files end with (`utils.py`, `__init__.py`) names none of them for sure: each
        // gets a share of the score, as an identifier naming several definitions does, and none is explicit.
        const files = resolvePath(path, index);
        const share = 1 / Math.sqrt(Math.max(1, files.length));
        for (const file of files) {
          const defs = index.definitionsIn(file);
          const top = defs.filter((d) => !d.qualified_name.includes('.'));
          for (const def of defs)
            add(
              def,
              (top.includes(def) ? 0.8 : 0.5) * share,
              `path ${path}`,
              files.length === 1 && top.includes(def) && top.length <= options.maxExplicitMatches,
            );
        }
      }
      for (const identifier of query.identifiers) {
        const defs = resolveSymbol(identifier, index);
        if (defs.length === 0) continue;
        const explicit = defs.length <= options.maxExplicitMatches;
        for (const def of defs) add(def, 0.9 / Math.sqrt(defs.length), `identifier ${identifier}`, explicit);
      }
      return [...out.values()];
    },
  };
}

export default definePlugin<SymbolOptions>({
  name: NAME,
  optionsSchema: {
    type: 'object',
    properties: { maxExplicitMatches: { type: 'integer', minimum: 1, default: 5 } },
    additionalProperties: false,
  },
  apply(hooks, { options }) {
    const retriever = createSymbolRetriever({ maxExplicitMatches: options.maxExplicitMatches ?? 5 });
    hooks.retrievers.tap(NAME, (registry) => registry.add(retriever));
  },
});
