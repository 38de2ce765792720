/**
 * A file's references as one blob (`ref_files.refs`): per reference, in the file's order, nine unsigned LEB128
 * varints — name id, context id, start line (zigzag delta from the reference before), start column, end line minus
 * start line, end column, then qualifier id, from id and to id each plus one (0 for none). Ids are the store's
 * interned ids (`ref_names`, `def_uids`). A row per reference cost the first build of a 7,600-file tree about a
 * tenth of its CPU (1.6 M rows through SQLite's B-tree); one blob per file costs a varint pass in JavaScript.
 */

/** The decoded fields of one reference, REF_FIELDS per reference; -1 for a missing qualifier, from or to. */
export const REF_FIELDS = 9;
export const RefField = {
  Name: 0,
  Context: 1,
  StartLine: 2,
  StartCol: 3,
  EndLine: 4,
  EndCol: 5,
  Qualifier: 6,
  From: 7,
  To: 8,
} as const;

/** Encodes references into a reusable buffer; `encoded()` is a view valid until the next `reset()`. */
export class ReferenceBlobWriter {
  #bytes = new Uint8Array(64 * 1024);
  #at = 0;
  #line = 0;
  count = 0;

  reset(): void {
    this.#at = 0;
    this.#line = 0;
    this.count = 0;
  }

  /** Appends one reference: ids and positions, -1 for a missing qualifier, from or to. */
  addFields(
    name: number,
    context: number,
    startLine: number,
    startCol: number,
    endLine: number,
    endCol: number,
    qualifier: number,
    from: number,
    to: number,
  ): void {
    // nine varints of at most 5 bytes each (ids and positions are below 2^32; zigzag keeps deltas so)
    if (this.#at + REF_FIELDS * 5 > this.#bytes.length) {
      const grown = new Uint8Array(this.#bytes.length * 2);
      grown.set(this.#bytes.subarray(0, this.#at));
      this.#bytes = grown;
    }
    const delta = startLine - this.#line;
    this.#line = startLine;
    this.#varint(name);
    this.#varint(context);
    this.#varint(delta >= 0 ? delta * 2 : -delta * 2 - 1);
    this.#varint(startCol);
    this.#varint(endLine - startLine);
    this.#varint(endCol);
    this.#varint(qualifier + 1);
    this.#varint(from + 1);
    this.#varint(to + 1);
    this.count += 1;
  }

  encoded(): Buffer {
    return Buffer.from(this.#bytes.buffer, this.#bytes.byteOffset, this.#at);
  }

  #varint(value: number): void {
    if (!(value >= 0 && value <= 0xffffffff && Number.isInteger(value)))
      throw new Error(`reference blob: ${value} is not a field the store can hold (0 … 2^32 − 1)`);
    const bytes = this.#bytes;
    let at = this.#at;
    while (value >= 0x80) {
      bytes[at++] = (value & 0x7f) | 0x80;
      value = Math.floor(value / 128);
    }
    bytes[at++] = value;
    this.#at = at;
  }
}

/**
 * A blob's references as REF_FIELDS int32 fields each (see RefField), in the file's order. Throws on a truncated or
 * overlong blob rather than reading past it: a store written by another build must not be misread.
 */
export function decodeReferences(blob: Uint8Array, count: number): Int32Array {
  const out = new Int32Array(count * REF_FIELDS);
  let at = 0;
  let line = 0;
  const next = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (at >= blob.length) throw new Error('reference blob: truncated');
      const byte = blob[at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
      if (scale > 2 ** 35) throw new Error('reference blob: a varint longer than 5 bytes');
    }
  };
  for (let i = 0; i < out.length; i += REF_FIELDS) {
    out[i + RefField.Name] = next();
    out[i + RefField.Context] = next();
    const zigzag = next();
    line += zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2;
    out[i + RefField.StartLine] = line;
    out[i + RefField.StartCol] = next();
    out[i + RefField.EndLine] = line + next();
    out[i + RefField.EndCol] = next();
    out[i + RefField.Qualifier] = next() - 1;
    out[i + RefField.From] = next() - 1;
    out[i + RefField.To] = next() - 1;
  }
  if (at !== blob.length) throw new Error('reference blob: longer than its count says');
  return out;
}
