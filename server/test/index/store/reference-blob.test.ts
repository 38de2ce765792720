import { expect } from 'chai';
import { decodeReferences, REF_FIELDS, ReferenceBlobWriter } from '../../../src/index/store/reference-blob.js';

/** One reference's fields in blob order (RefField, addFields' arguments), −1 for none. */
type Fields = [number, number, number, number, number, number, number, number, number];

describe('server.index.store: a file’s references as one blob', () => {
  const big = 2 ** 31 - 1;
  const refs: Fields[] = [
    [1, 2, 40, 8, 40, 12, -1, 0, -1],
    // a line before the previous one (references are not always in line order), spanning lines, large ids
    [big, 0, 3, 0, 9, 1, 7, -1, 5],
    [0, 1, 0, big, 0, big, 0, 2 ** 30, 0],
    [300, 3, big, 127, big, 128, -1, -1, -1],
  ];
  const withField = (fields: Fields, at: number, value: number): Fields => {
    const changed: Fields = [...fields];
    changed[at] = value;
    return changed;
  };

  it('reads back every field as written, in order, with none as −1', () => {
    const writer = new ReferenceBlobWriter();
    for (const ref of refs) writer.addFields(...ref);
    expect(writer.count).to.equal(4);
    const fields = decodeReferences(Uint8Array.from(writer.encoded()), writer.count);
    expect(fields.length).to.equal(4 * REF_FIELDS);
    expect([...fields]).to.deep.equal(refs.flat());
  });

  it('starts over on reset, growing past its first buffer', () => {
    const writer = new ReferenceBlobWriter();
    writer.addFields(...refs[1]!);
    writer.reset();
    const many = Array.from({ length: 5000 }, (_, i) => withField(withField(refs[1]!, 2, i * 3), 4, i * 3 + 1));
    for (const ref of many) writer.addFields(...ref);
    expect([...decodeReferences(writer.encoded(), many.length)]).to.deep.equal(many.flat());
  });

  it('refuses a truncated blob, trailing bytes, an overlong varint and a field it cannot hold', () => {
    const writer = new ReferenceBlobWriter();
    for (const ref of refs) writer.addFields(...ref);
    const blob = Uint8Array.from(writer.encoded());
    expect(() => decodeReferences(blob.subarray(0, blob.length - 1), 4)).to.throw(/truncated/);
    expect(() => decodeReferences(blob, 3)).to.throw(/longer than its count/);
    expect(() => decodeReferences(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), 1)).to.throw(/varint/);
    expect(() => writer.addFields(...withField(refs[0]!, 3, -1))).to.throw(/not a field the store can hold/);
    expect(() => writer.addFields(...withField(refs[0]!, 0, 2 ** 32))).to.throw(/not a field the store can hold/);
  });
});
