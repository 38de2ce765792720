import { identifierWords, type RetrievalIndex } from '@agentgov/core';

/** A distinct definition name, its split words, and the definitions that bear it. */
export interface NamedDefinitions {
  name: string;
  lower: string;
  words: string[];
  defs: { def_uid: string; qualified: string }[];
}

/** Split name words of every definition plus each word's document frequency, for one index version. */
export interface NameTable {
  /**
   * One entry per distinct name (names repeat: `__init__`, `get`, `_eval_is_zero` in hundreds of classes), so a
   * query scores each name once.
   */
  names: NamedDefinitions[];
  /** How many definitions there are. */
  total: number;
  /** How many definition names contain each word. */
  df: Map<string, number>;
}

const tables = new WeakMap<RetrievalIndex, { version: string; table: NameTable }>();

export function nameTable(index: RetrievalIndex): NameTable {
  const cached = tables.get(index);
  if (cached && cached.version === index.version) return cached.table;
  const byName = new Map<string, NamedDefinitions>();
  const df = new Map<string, number>();
  let total = 0;
  for (const def of index.definitions()) {
    let named = byName.get(def.name);
    if (!named) {
      named = {
        name: def.name,
        lower: def.name.toLowerCase(),
        words: [...new Set(identifierWords(def.name))],
        defs: [],
      };
      byName.set(def.name, named);
    }
    named.defs.push({ def_uid: def.def_uid, qualified: def.qualified_name.toLowerCase() });
    for (const word of named.words) df.set(word, (df.get(word) ?? 0) + 1);
    total += 1;
  }
  const table = { names: [...byName.values()], total, df };
  tables.set(index, { version: index.version, table });
  return table;
}
