import { expect } from 'chai';
import { encodeFrame, FrameDecoder, MAX_FRAME_BYTES } from '../../src/gate/protocol.js';

describe('gate/protocol', () => {
  it('round-trips a frame delivered in one chunk', () => {
    const frame = encodeFrame({ hello: 'wörld' });
    expect(new FrameDecoder().push(frame)).to.deep.equal({ kind: 'frame', value: { hello: 'wörld' } });
  });

  it('reassembles a frame delivered one byte at a time', () => {
    const frame = encodeFrame({ a: [1, 2, 3] });
    const decoder = new FrameDecoder();
    let result;
    for (let i = 0; i < frame.length; i++) {
      result = decoder.push(frame.subarray(i, i + 1));
      if (i < frame.length - 1) expect(result, `byte ${i}`).to.equal(undefined);
    }
    expect(result).to.deep.equal({ kind: 'frame', value: { a: [1, 2, 3] } });
  });

  it('refuses a frame announcing more than the limit before its body arrives', () => {
    const header = Buffer.alloc(4);
    header.writeUInt32BE(MAX_FRAME_BYTES + 1, 0);
    expect(new FrameDecoder().push(header)).to.deep.equal({ kind: 'too_large', bytes: MAX_FRAME_BYTES + 1 });
  });

  it('reports a body that is not JSON', () => {
    const body = Buffer.from('{nope');
    const header = Buffer.alloc(4);
    header.writeUInt32BE(body.length, 0);
    const result = new FrameDecoder().push(Buffer.concat([header, body]));
    expect(result?.kind).to.equal('malformed');
  });

  it('will not encode a message over the limit', () => {
    expect(() => encodeFrame({ big: 'x'.repeat(MAX_FRAME_BYTES) })).to.throw(RangeError);
  });
});
