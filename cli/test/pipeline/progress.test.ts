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

/** What the terminal shows: the text of each drawn frame, cursor and erase codes removed. */
function frames(text: string): string[] {
  /* eslint-disable no-control-regex -- the escape codes are what this strips */
  return text
    .split(/\x1b\[1G/)
    .map((frame) => frame.replace(/\x1b(?:\[[?0-9;]*[A-Za-z]|[78])/g, ''))
    .filter((frame) => frame !== '');
  /* eslint-enable no-control-regex */
}

describe('replay progress bar (cli-progress)', () => {
  it('draws in place on a TTY for several files, and clears its line when done', () => {
    const out = stream(true);
    const progress = createProgress(out.s, 4);
    progress.tick('/a.jsonl');
    progress.tick('/b.jsonl');
    progress.done();
    const drawn = frames(out.text());
    expect(drawn[0]).to.equal('[..............................] 0/4 ');
    expect(drawn.at(-1)).to.equal('[###############...............] 2/4 /b.jsonl');
    expect(out.text().endsWith('\x1b[2K'), 'the line is cleared when done').to.equal(true);
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
    const progress = createProgress(out.s, 2);
    progress.tick('/very/long/path/'.repeat(10));
    progress.done();
    for (const frame of frames(out.text())) expect(frame.length).to.be.at.most(60);
  });
});
