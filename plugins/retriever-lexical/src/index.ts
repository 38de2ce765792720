import {
  definePlugin,
  identifierWords,
  largestRange,
  type RetrievalIndex,
  type RetrievalQuery,
  type Retriever,
  type RetrieverCandidate,
} from '@agentgov/core';
import { LexicalStore } from './lexical-store.js';
import { createLiteralRetriever } from './literal.js';

export { createLiteralRetriever, literalOffsets, taskLiterals } from './literal.js';

export const NAME = 'retriever-lexical';

export interface LexicalOptions {
  /** Definitions returned per query (default 200). */
  limit: number;
  /** Files taken from the whole-file view (default 40). */
  fileLimit: number;
  /** Weight of a definition's file score next to its own score, both normalised to the best hit (default 1). */
  fileWeight: number;
  /** Query words used at most; long tasks keep their first ones (default 64). */
  maxWords: number;
}

const stores = new WeakMap<RetrievalIndex, { version: string; store: LexicalStore }>();

function storeFor(index: RetrievalIndex): LexicalStore {
  const cached = stores.get(index);
  if (cached && cached.version === index.version) return cached.store;
  cached?.store.close();
  const store = new LexicalStore(index);
  stores.set(index, { version: index.version, store });
  return store;
}

/** The words a lexical query searches: terms first, then the split words of identifiers and paths. */
export function queryWords(query: RetrievalQuery, max: number): string[] {
  const words = [
    ...query.terms.flatMap((t) => identifierWords(t)),
    ...query.identifiers.flatMap((i) => identifierWords(i)),
    ...query.quoted.flatMap((q) => identifierWords(q)),
  ];
  return [...new Set(words.filter((w) => w.length >= 2))].slice(0, max);
}

/**
 * BM25 (SQLite FTS5) over per-definition documents, blended with a whole-file view so that a
 * definition in a file that matches as a whole is not drowned by small, term-dense definitions elsewhere.
 */
export function createLexicalRetriever(options: LexicalOptions): Retriever {
  return {
    name: 'lexical',
    phase: 'primary',
    async retrieve(query, { index }) {
      const words = queryWords(query, options.maxWords);
      if (words.length === 0) return [];
      const store = storeFor(index);
      const defHits = store.searchDefinitions(words, options.limit);
      const fileHits = store.searchFiles(words, options.fileLimit);
      const bestDef = defHits[0]?.score || 1;
      const bestFile = fileHits[0]?.score || 1;
      const fileScore = new Map(fileHits.map((hit) => [hit.path, hit.score / bestFile]));
      const out = new Map<string, RetrieverCandidate>();
      const represented = new Set<string>();
      for (const hit of defHits) {
        const def = index.definition(hit.def_uid);
        if (!def) continue;
        represented.add(def.path);
        const fromFile = fileScore.get(def.path) ?? 0;
        out.set(hit.def_uid, {
          def_uid: hit.def_uid,
          score: hit.score / bestDef + options.fileWeight * fromFile,
          why: fromFile > 0 ? 'definition+file' : 'definition',
        });
      }
      for (const hit of fileHits) {
        if (represented.has(hit.path)) continue;
        const largest = largestRange(index.definitionsIn(hit.path));
        if (largest)
          out.set(largest.def_uid, {
            def_uid: largest.def_uid,
            score: options.fileWeight * (fileScore.get(hit.path) ?? 0),
            why: 'file',
          });
      }
      return [...out.values()];
    },
  };
}

/**
 * The whole-file view as its own ranking: BM25 over whole files, each file represented by its
 * best-matching definition (or its largest one). Fused next to the definition ranking, it gives
 * file-level relevance its own vote, so a file that matches as a whole is not outvoted by small,
 * term-dense definitions elsewhere.
 */
export function createLexicalFileRetriever(options: LexicalOptions): Retriever {
  return {
    name: 'lexical_file',
    phase: 'primary',
    async retrieve(query, { index }) {
      const words = queryWords(query, options.maxWords);
      if (words.length === 0) return [];
      const store = storeFor(index);
      const fileHits = store.searchFiles(words, options.fileLimit);
      if (fileHits.length === 0) return [];
      const bestDefIn = new Map<string, string>();
      for (const hit of store.searchDefinitions(words, options.limit)) {
        const def = index.definition(hit.def_uid);
        if (def && !bestDefIn.has(def.path)) bestDefIn.set(def.path, def.def_uid);
      }
      const out: RetrieverCandidate[] = [];
      for (const hit of fileHits) {
        const uid = bestDefIn.get(hit.path) ?? largestRange(index.definitionsIn(hit.path))?.def_uid;
        if (uid) out.push({ def_uid: uid, score: hit.score, why: `file ${hit.path}` });
      }
      return out;
    },
  };
}

export default definePlugin<LexicalOptions>({
  name: NAME,
  optionsSchema: {
    type: 'object',
    properties: {
      limit: { type: 'integer', minimum: 1, default: 200 },
      fileLimit: { type: 'integer', minimum: 0, default: 40 },
      fileWeight: { type: 'number', minimum: 0, default: 1 },
      maxWords: { type: 'integer', minimum: 1, default: 64 },
    },
    additionalProperties: false,
  },
  apply(hooks, { options }) {
    const resolved = {
      limit: options.limit ?? 200,
      fileLimit: options.fileLimit ?? 40,
      fileWeight: options.fileWeight ?? 1,
      maxWords: options.maxWords ?? 64,
    };
    hooks.retrievers.tap(NAME, (registry) => {
      registry.add(createLexicalRetriever(resolved));
      registry.add(createLexicalFileRetriever(resolved));
      registry.add(createLiteralRetriever({ maxFiles: 6, limit: 50 }, storeFor));
    });
  },
});
