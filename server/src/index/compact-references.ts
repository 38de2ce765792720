import { REFERENCE_CONTEXTS, type ExtractedReference, type ReferenceContext } from '@agentgov/core/contracts';

/** V8 keeps a sliced substring's whole parent alive; a copy lets the parent (a file's source) go. */
function detached(text: string): string {
  return text.length >= 13 ? (JSON.parse(JSON.stringify(text)) as string) : text;
}

/** Interns strings across files so a first build holds each identifier once. */
export class StringPool {
  readonly #pool = new Map<string, string>();
  get(text: string): string {
    let pooled = this.#pool.get(text);
    if (pooled === undefined) {
      pooled = detached(text);
      this.#pool.set(pooled, pooled);
    }
    return pooled;
  }
}

/** name, qualifier, enclosing (indexes into `strings`, -1 for null), context, start line/col, end line/col. */
const FIELDS = 8;
const CONTEXT_INDEX = new Map<ReferenceContext, number>(REFERENCE_CONTEXTS.map((context, i) => [context, i]));

/**
 * One file's references as a string table plus an Int32Array: cheap to post from a worker thread
 * (the array's buffer is transferred, each distinct string is copied once) and small to hold.
 */
export interface PackedReferences {
  strings: string[];
  ints: Int32Array;
}

export function packReferences(references: readonly ExtractedReference[]): PackedReferences {
  const strings: string[] = [];
  const ids = new Map<string, number>();
  const id = (text: string | null): number => {
    if (text === null) return -1;
    let at = ids.get(text);
    if (at === undefined) {
      at = strings.push(text) - 1;
      ids.set(text, at);
    }
    return at;
  };
  const ints = new Int32Array(references.length * FIELDS);
  references.forEach((ref, i) => {
    const at = i * FIELDS;
    ints[at] = id(ref.name);
    ints[at + 1] = id(ref.qualifier);
    ints[at + 2] = id(ref.enclosing);
    ints[at + 3] = CONTEXT_INDEX.get(ref.context)!;
    ints[at + 4] = ref.span.startLine;
    ints[at + 5] = ref.span.startCol;
    ints[at + 6] = ref.span.endLine;
    ints[at + 7] = ref.span.endCol;
  });
  return { strings, ints };
}

/**
 * A file's references between extraction and resolution, packed (ints in a typed array, strings
 * pooled): a first build holds every file's references at once, so object-per-reference costs too much.
 */
export class CompactReferences implements Iterable<ExtractedReference> {
  readonly #strings: string[];
  readonly #ints: Int32Array;

  constructor(packed: PackedReferences, pool: StringPool) {
    this.#strings = packed.strings.map((text) => pool.get(text));
    this.#ints = packed.ints;
  }

  get length(): number {
    return this.#ints.length / FIELDS;
  }

  *[Symbol.iterator](): Iterator<ExtractedReference> {
    const ints = this.#ints;
    const strings = this.#strings;
    for (let at = 0; at < ints.length; at += FIELDS) {
      const qualifier = ints[at + 1]!;
      const enclosing = ints[at + 2]!;
      yield {
        name: strings[ints[at]!]!,
        context: REFERENCE_CONTEXTS[ints[at + 3]!]!,
        span: { startLine: ints[at + 4]!, startCol: ints[at + 5]!, endLine: ints[at + 6]!, endCol: ints[at + 7]! },
        qualifier: qualifier < 0 ? null : strings[qualifier]!,
        enclosing: enclosing < 0 ? null : strings[enclosing]!,
      };
    }
  }
}
