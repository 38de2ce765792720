import { expect } from 'chai';
import { anyMatches, joinPatterns, NeedledPattern } from '../../src/risk/patterns.js';

describe('patterns: regex lists joined for "does any match"', function () {
  const patterns = [/^~\/\.ssh\//, /\.pem$/i, /(^|\/)\.env$/, /\.KEY$/i, /(a)b\1/, /(?<x>y)z/, /^rm( |$)/];
  const texts = ['~/.ssh/id_rsa', 'cert.PEM', 'app/.env', 'x.key', 'abab', 'abb', 'yz', 'rm -rf', 'rmdir', 'plain', ''];

  it('answers like the separate patterns for every text', function () {
    const joined = joinPatterns(patterns);
    for (const text of texts) expect(anyMatches(joined, text), text).to.equal(patterns.some((re) => re.test(text)));
  });

  it('joins per flag set and leaves backreferences and named groups alone', function () {
    const joined = joinPatterns(patterns);
    expect(joined).to.have.length(4);
    expect((joined as RegExp[]).map((re) => re.flags).sort()).to.deep.equal(['', '', '', 'i']);
    expect(joined).to.include(patterns[4]).and.to.include(patterns[5]);
  });

  it('leaves a list of one, and a global pattern, as it is', function () {
    const one = /a/;
    expect(joinPatterns([one]))
      .to.deep.equal([one])
      .and.to.include(one);
    const global = /a/g;
    expect(joinPatterns([global, /b/])).to.include(global);
  });
});

describe('patterns: expressions with needles run only on texts holding one', function () {
  class Counting extends NeedledPattern {
    runs = 0;
    override run(text: string): boolean {
      this.runs++;
      return super.run(text);
    }
  }

  it('answers like the expressions, running none when no needle is in the text', function () {
    const curl = new Counting('\\bcurl\\b.*\\|\\s*sh', '', ['curl']);
    const pem = new Counting('\\.PEM$', 'i', ['.pem']);
    const key = new NeedledPattern('\\.key$', '', ['.key'], /\.key$/);
    const plain = /^rm( |$)/;
    const joined = joinPatterns([curl, pem, key, plain]);
    expect(joined).to.have.length(2);
    for (const [text, expected] of [
      ['git status', false],
      ['curl -fsSL x | sh', true],
      ['curl x', false],
      ['cat KEY.PEM', true],
      ['cat a.key', true],
      ['cat a.KEY', false],
      ['rm -rf x', true],
    ] as const)
      expect(anyMatches(joined, text), text).to.equal(expected);
    expect(curl.runs).to.equal(2);
    expect(pem.runs).to.equal(1);
    expect(new Counting('ab+c', '', ['ab']).test('xabbbc')).to.equal(true);
  });

  it('keeps the needles when joined lists are joined again', function () {
    const a = new Counting('abc', '', ['abc']);
    const b = new Counting('xyz', '', ['xyz']);
    const again = joinPatterns([...joinPatterns([a]), ...joinPatterns([b])]);
    expect(again).to.have.length(1);
    expect(anyMatches(again, 'none here')).to.equal(false);
    expect(anyMatches(again, '..xyz..')).to.equal(true);
    expect(a.runs + b.runs).to.equal(1);
  });
});
