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
  // Order does not matter: candidates are ranked by score, then uid.
  for (const def of index.definitionNames?.() ?? index.definitions()) {
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
    total += 1;
  }
  // A word counts once per definition whose name has it: counted per distinct name, by its definitions.
  for (const named of byName.values())
    for (const word of named.words) df.set(word, (df.get(word) ?? 0) + named.defs.length);
  const table = { names: [...byName.values()], total, df };
  tables.set(index, { version: index.version, table });
  return table;
}
