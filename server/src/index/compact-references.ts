import { REFERENCE_CONTEXTS, type ExtractedReference } from '@agentgov/core';

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
  nullable(text: string | null): string | null {
    return text === null ? null : this.get(text);
  }
}

const FIELDS = 5;

/**
 * A file's references between extraction and resolution, packed (ints in a typed array, strings
 * pooled): a first build holds every file's references at once, so object-per-reference costs too much.
 */
export class CompactReferences implements Iterable<ExtractedReference> {
  readonly #names: string[];
  readonly #qualifiers: Array<string | null>;
  readonly #enclosing: Array<string | null>;
  readonly #ints: Int32Array;

  constructor(references: readonly ExtractedReference[], pool: StringPool) {
    this.#names = new Array<string>(references.length);
    this.#qualifiers = new Array<string | null>(references.length);
    this.#enclosing = new Array<string | null>(references.length);
    this.#ints = new Int32Array(references.length * FIELDS);
    references.forEach((ref, i) => {
      this.#names[i] = pool.get(ref.name);
      this.#qualifiers[i] = pool.nullable(ref.qualifier);
      this.#enclosing[i] = pool.nullable(ref.enclosing);
      const at = i * FIELDS;
      this.#ints[at] = REFERENCE_CONTEXTS.indexOf(ref.context);
      this.#ints[at + 1] = ref.span.startLine;
      this.#ints[at + 2] = ref.span.startCol;
      this.#ints[at + 3] = ref.span.endLine;
      this.#ints[at + 4] = ref.span.endCol;
    });
  }

  get length(): number {
    return this.#names.length;
  }

  *[Symbol.iterator](): Iterator<ExtractedReference> {
    const ints = this.#ints;
    for (let i = 0; i < this.#names.length; i++) {
      const at = i * FIELDS;
      yield {
        name: this.#names[i]!,
        context: REFERENCE_CONTEXTS[ints[at]!]!,
        span: { startLine: ints[at + 1]!, startCol: ints[at + 2]!, endLine: ints[at + 3]!, endCol: ints[at + 4]! },
        qualifier: this.#qualifiers[i]!,
        enclosing: this.#enclosing[i]!,
      };
    }
  }
}
