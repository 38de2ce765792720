import { expect } from 'chai';
import { FrameStack } from '../../src/contracts/frame-stack.js';

describe('FrameStack', () => {
  it('answers ancestors by distance, and only the live ones', () => {
    const frames = new FrameStack();
    frames.push('program', null, 0);
    frames.push('call_expression', 'body', 4);
    frames.push('arguments', 'arguments', 9);
    expect(frames.up(1)).to.deep.equal({ type: 'arguments', field: 'arguments', start: 9 });
    expect(frames.up(3)?.type).to.equal('program');
    expect(frames.up(4)).to.equal(undefined);
    expect(frames.has('call_expression')).to.equal(true);
    frames.pop();
    frames.pop();
    expect(frames.up(1)?.type).to.equal('program');
    expect(frames.has('call_expression')).to.equal(false);
  });

  it("reuses a depth's frame object for the next node at that depth", () => {
    const frames = new FrameStack();
    frames.push('a', null, 0);
    const first = frames.up(1);
    frames.pop();
    frames.push('b', 'name', 7);
    expect(frames.up(1)).to.equal(first);
    expect(first).to.deep.equal({ type: 'b', field: 'name', start: 7 });
  });
});
