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
  // Names repeat (`__init__`, `get`, `_eval_is_zero` in hundreds of classes): split each distinct name once, and
  // let the entries of one name share its words and lowercase spelling.
  const split = new Map<string, { lower: string; words: string[] }>();
  for (const def of index.definitions()) {
    let named = split.get(def.name);
    if (!named) {
      named = { lower: def.name.toLowerCase(), words: [...new Set(identifierWords(def.name))] };
      split.set(def.name, named);
    }
    const { lower, words } = named;
    entries.push({ def_uid: def.def_uid, name: def.name, lower, qualified: def.qualified_name.toLowerCase(), words });
    for (const word of words) df.set(word, (df.get(word) ?? 0) + 1);
  }
  const table = { entries, df };
  tables.set(index, { version: index.version, table });
  return table;
}
