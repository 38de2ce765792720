import type { GraphRelation, RetrievalDefinition, RetrievalIndex } from '../contracts/retriever.js';
import { identifierWords, vocabularyWords } from '../text/identifier-words.js';

/**
 * A complete in-memory `RetrievalIndex` over given files and definitions, for retriever plugin
 * tests that should not need the server's tree-sitter index. Edges are given explicitly.
 */
export class MemoryRetrievalIndex implements RetrievalIndex {
  readonly version: string;
  readonly #defs: Map<string, RetrievalDefinition>;
  readonly #edges: Map<string, { def_uid: string; relation: GraphRelation }[]>;

  constructor(
    readonly texts: Record<string, string>,
    defs: RetrievalDefinition[],
    edges: { from: string; to: string; relation: GraphRelation }[] = [],
    readonly ranks: Record<string, number> = {},
    version = '1',
  ) {
    this.version = version;
    this.#defs = new Map(defs.map((d) => [d.def_uid, d]));
    this.#edges = new Map();
    for (const edge of edges)
      this.#edges.set(edge.from, [
        ...(this.#edges.get(edge.from) ?? []),
        { def_uid: edge.to, relation: edge.relation },
      ]);
  }

  definitions(): Iterable<RetrievalDefinition> {
    return this.#defs.values();
  }
  definition(defUid: string): RetrievalDefinition | undefined {
    return this.#defs.get(defUid);
  }
  definitionsNamed(name: string): RetrievalDefinition[] {
    return [...this.#defs.values()].filter((d) => d.name === name);
  }
  definitionsIn(path: string): RetrievalDefinition[] {
    return [...this.#defs.values()].filter((d) => d.path === path).sort((a, b) => a.start_line - b.start_line);
  }
  files(): string[] {
    return Object.keys(this.texts);
  }
  fileText(path: string): string | undefined {
    return this.texts[path];
  }
  isKnownName(name: string): boolean {
    const word = new RegExp(`(?<![\\w$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`);
    return this.definitionsNamed(name).length > 0 || Object.values(this.texts).some((t) => word.test(t));
  }
  isRepositoryWord(word: string): boolean {
    const lower = word.toLowerCase();
    return (
      Object.entries(this.texts).some(
        ([path, text]) => identifierWords(path).includes(lower) || vocabularyWords(text).has(lower),
      ) || [...this.#defs.values()].some((d) => vocabularyWords(d.name).has(lower))
    );
  }
  wordFileCount(word: string): number {
    const lower = word.toLowerCase();
    return Object.entries(this.texts).filter(
      ([path, text]) => identifierWords(path).includes(lower) || vocabularyWords(text).has(lower),
    ).length;
  }
  neighbors(defUid: string): { def_uid: string; relation: GraphRelation }[] {
    return this.#edges.get(defUid) ?? [];
  }
  pagerank(defUid: string): number {
    return this.ranks[defUid] ?? 1;
  }
}

/** A definition record with defaults, for fixtures: `fixtureDef('a.ts', 'parse', 3, 9)`. */
export function fixtureDef(
  path: string,
  name: string,
  start: number,
  end: number,
  extra: Partial<RetrievalDefinition> = {},
): RetrievalDefinition {
  return {
    def_uid: `${path}#${extra.qualified_name ?? name}`,
    path,
    kind: 'function',
    name,
    qualified_name: name,
    start_line: start,
    end_line: end,
    signature: null,
    docstring: null,
    ...extra,
  };
}
