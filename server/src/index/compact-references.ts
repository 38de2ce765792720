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

/** A packed reference's fields, PACKED_FIELDS int32 each: string table indexes are -1 for null. */
export const PACKED_FIELDS = 8;
export const PackedField = {
  Name: 0,
  Qualifier: 1,
  Enclosing: 2,
  /** Index into REFERENCE_CONTEXTS. */
  Context: 3,
  StartLine: 4,
  StartCol: 5,
  EndLine: 6,
  EndCol: 7,
} as const;
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
  const ints = new Int32Array(references.length * PACKED_FIELDS);
  references.forEach((ref, i) => {
    const at = i * PACKED_FIELDS;
    ints[at + PackedField.Name] = id(ref.name);
    ints[at + PackedField.Qualifier] = id(ref.qualifier);
    ints[at + PackedField.Enclosing] = id(ref.enclosing);
    ints[at + PackedField.Context] = CONTEXT_INDEX.get(ref.context)!;
    ints[at + PackedField.StartLine] = ref.span.startLine;
    ints[at + PackedField.StartCol] = ref.span.startCol;
    ints[at + PackedField.EndLine] = ref.span.endLine;
    ints[at + PackedField.EndCol] = ref.span.endCol;
  });
  return { strings, ints };
}

/**
 * A file's references between extraction and resolution, packed (ints in a typed array, strings
 * pooled): a first build holds every file's references at once, so object-per-reference costs too much.
 * Resolution and the store read the fields by index (PackedField) and intern each distinct string once.
 */
export class CompactReferences {
  readonly strings: readonly string[];
  readonly ints: Int32Array;

  constructor(packed: PackedReferences, pool: StringPool) {
    this.strings = packed.strings.map((text) => pool.get(text));
    this.ints = packed.ints;
  }

  get length(): number {
    return this.ints.length / PACKED_FIELDS;
  }

  /** The `i`th reference as the extractor gave it. */
  at(i: number): ExtractedReference {
    const ints = this.ints;
    const strings = this.strings;
    const at = i * PACKED_FIELDS;
    const qualifier = ints[at + PackedField.Qualifier]!;
    const enclosing = ints[at + PackedField.Enclosing]!;
    return {
      name: strings[ints[at + PackedField.Name]!]!,
      context: REFERENCE_CONTEXTS[ints[at + PackedField.Context]!]!,
      span: {
        startLine: ints[at + PackedField.StartLine]!,
        startCol: ints[at + PackedField.StartCol]!,
        endLine: ints[at + PackedField.EndLine]!,
        endCol: ints[at + PackedField.EndCol]!,
      },
      qualifier: qualifier < 0 ? null : strings[qualifier]!,
      enclosing: enclosing < 0 ? null : strings[enclosing]!,
    };
  }
}
