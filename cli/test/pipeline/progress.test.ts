import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { createProgress } from '../../src/pipeline/progress.js';

function stream(isTTY: boolean): { s: PassThrough & { isTTY?: boolean; columns?: number }; text: () => string } {
  const s = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  s.isTTY = isTTY;
  s.columns = 60;
  let text = '';
  s.on('data', (c: Buffer) => (text += c.toString()));
  return { s, text: () => text };
}

describe('replay progress bar', () => {
  it('draws in place on a TTY for several files, and clears its line when done', () => {
    const out = stream(true);
    const progress = createProgress(out.s, 4);
    progress.tick('/a.jsonl');
    progress.tick('/b.jsonl');
    progress.done();
    const frames = out.text().split('\r\x1b[2K');
    expect(frames[1]).to.equal('[########......................] 1/4 /a.jsonl');
    expect(frames[2]).to.equal('[###############...............] 2/4 /b.jsonl');
    expect(frames[3]).to.equal('');
  });

  it('draws nothing when the stream is not a TTY or there is one file', () => {
    const pipe = stream(false);
    createProgress(pipe.s, 10).tick('x');
    const single = stream(true);
    createProgress(single.s, 1).tick('x');
    expect(pipe.text() + single.text()).to.equal('');
  });

  it('never draws wider than the terminal', () => {
    const out = stream(true);
    createProgress(out.s, 2).tick('/very/long/path/'.repeat(10));
    expect(out.text().replace('\r\x1b[2K', '').length).to.equal(59);
  });
});
