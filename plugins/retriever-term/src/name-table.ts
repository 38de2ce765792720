import { identifierWords, type RetrievalIndex } from '@agentgov/core';

/** Split name words of every definition plus each word's document frequency, for one index version. */
export interface NameTable {
  entries: { def_uid: string; name: string; lower: string; qualified: string; words: string[] }[];
  /** How many definition names contain each word. */
  df: Map<string, number>;
}

const tables = new WeakMap<RetrievalIndex, { version: string; table: NameTable }>();

export function nameTable(index: RetrievalIndex): NameTable {
  const cached = tables.get(index);
  if (cached && cached.version === index.version) return cached.table;
  const entries: NameTable['entries'] = [];
  const df = new Map<string, number>();
  for (const def of index.definitions()) {
    const words = [...new Set(identifierWords(def.name))];
    entries.push({
      def_uid: def.def_uid,
      name: def.name,
      lower: def.name.toLowerCase(),
      qualified: def.qualified_name.toLowerCase(),
      words,
    });
    for (const word of words) df.set(word, (df.get(word) ?? 0) + 1);
  }
  const table = { entries, df };
  tables.set(index, { version: index.version, table });
  return table;
}
