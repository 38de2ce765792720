import { expect } from 'chai';
import {
  decodeReferences,
  REF_FIELDS,
  ReferenceBlobWriter,
  type ReferenceIds,
} from '../../../src/index/store/reference-blob.js';

const fieldsOf = (ref: ReferenceIds): number[] => [
  ref.name,
  ref.context,
  ref.startLine,
  ref.startCol,
  ref.endLine,
  ref.endCol,
  ref.qualifier ?? -1,
  ref.from ?? -1,
  ref.to ?? -1,
];

/** A reference from its fields in blob order, −1 for none. */
const reference = ([name, context, startLine, startCol, endLine, endCol, qualifier, from, to]: number[]) => ({
  name: name!,
  context: context!,
  startLine: startLine!,
  startCol: startCol!,
  endLine: endLine!,
  endCol: endCol!,
  qualifier: qualifier! < 0 ? null : qualifier!,
  from: from! < 0 ? null : from!,
  to: to! < 0 ? null : to!,
});

describe('server.index.store: a file’s references as one blob', () => {
  const big = 2 ** 31 - 1;
  const refs: ReferenceIds[] = [
    [1, 2, 40, 8, 40, 12, -1, 0, -1],
    // a line before the previous one (references are not always in line order), spanning lines, large ids
    [big, 0, 3, 0, 9, 1, 7, -1, 5],
    [0, 1, 0, big, 0, big, 0, 2 ** 30, 0],
    [300, 3, big, 127, big, 128, -1, -1, -1],
  ].map(reference);

  it('reads back every field as written, in order, with none as −1', () => {
    const writer = new ReferenceBlobWriter();
    for (const ref of refs) writer.add(ref);
    expect(writer.count).to.equal(4);
    const fields = decodeReferences(Uint8Array.from(writer.encoded()), writer.count);
    expect(fields.length).to.equal(4 * REF_FIELDS);
    expect([...fields]).to.deep.equal(refs.flatMap(fieldsOf));
  });

  it('starts over on reset, growing past its first buffer', () => {
    const writer = new ReferenceBlobWriter();
    writer.add(refs[1]!);
    writer.reset();
    const many = Array.from({ length: 5000 }, (_, i) => ({ ...refs[1]!, startLine: i * 3, endLine: i * 3 + 1 }));
    for (const ref of many) writer.add(ref);
    expect([...decodeReferences(writer.encoded(), many.length)]).to.deep.equal(many.flatMap(fieldsOf));
  });

  it('refuses a truncated blob, trailing bytes, an overlong varint and a field it cannot hold', () => {
    const writer = new ReferenceBlobWriter();
    for (const ref of refs) writer.add(ref);
    const blob = Uint8Array.from(writer.encoded());
    expect(() => decodeReferences(blob.subarray(0, blob.length - 1), 4)).to.throw(/truncated/);
    expect(() => decodeReferences(blob, 3)).to.throw(/longer than its count/);
    expect(() => decodeReferences(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), 1)).to.throw(/varint/);
    expect(() => writer.add({ ...refs[0]!, startCol: -1 })).to.throw(/not a field the store can hold/);
    expect(() => writer.add({ ...refs[0]!, name: 2 ** 32 })).to.throw(/not a field the store can hold/);
  });
});
