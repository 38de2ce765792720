import { expect } from 'chai';
import { colourEnabled, terminalColours } from '../../src/text/terminal-colours.js';

describe('terminal colours (picocolors): NO_COLOR and FORCE_COLOR', () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };

  it('a terminal gets colour, a pipe and TERM=dumb do not', () => {
    expect(colourEnabled(tty, {})).to.equal(true);
    expect(colourEnabled(pipe, {})).to.equal(false);
    expect(colourEnabled(tty, { TERM: 'dumb' })).to.equal(false);
  });

  it('NO_COLOR (set, not empty) turns it off, even with FORCE_COLOR', () => {
    expect(colourEnabled(tty, { NO_COLOR: '1' })).to.equal(false);
    expect(colourEnabled(pipe, { NO_COLOR: '1', FORCE_COLOR: '1' })).to.equal(false);
    expect(colourEnabled(tty, { NO_COLOR: '' })).to.equal(true);
  });

  it('FORCE_COLOR turns it on into a pipe; FORCE_COLOR=0 or false turns it off on a terminal', () => {
    expect(colourEnabled(pipe, { FORCE_COLOR: '1' })).to.equal(true);
    expect(colourEnabled(pipe, { FORCE_COLOR: '' })).to.equal(true);
    expect(colourEnabled(tty, { FORCE_COLOR: '0' })).to.equal(false);
    expect(colourEnabled(tty, { FORCE_COLOR: 'false' })).to.equal(false);
  });

  it('the colour functions colour or are the identity', () => {
    expect(terminalColours(pipe, { FORCE_COLOR: '1' }).red('x')).to.equal('\x1b[31mx\x1b[39m');
    expect(terminalColours(tty, { NO_COLOR: '1' }).red('x')).to.equal('x');
  });
});
