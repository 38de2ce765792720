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

describe('server.index.store: a file’s references as one blob', () => {
  const refs: ReferenceIds[] = [
    { name: 1, context: 2, startLine: 40, startCol: 8, endLine: 40, endCol: 12, qualifier: null, from: 0, to: null },
    // a line before the previous one (references are not always in line order), spanning lines, large ids
    {
      name: 2 ** 31 - 1,
      context: 0,
      startLine: 3,
      startCol: 0,
      endLine: 9,
      endCol: 1,
      qualifier: 7,
      from: null,
      to: 5,
    },
    {
      name: 0,
      context: 1,
      startLine: 0,
      startCol: 2 ** 31 - 1,
      endLine: 0,
      endCol: 2 ** 31 - 1,
      qualifier: 0,
      from: 2 ** 30,
      to: 0,
    },
    {
      name: 300,
      context: 3,
      startLine: 2 ** 31 - 1,
      startCol: 127,
      endLine: 2 ** 31 - 1,
      endCol: 128,
      qualifier: null,
      from: null,
      to: null,
    },
  ];

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
