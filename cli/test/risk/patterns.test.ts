import { expect } from 'chai';
import { anyMatches, joinPatterns } from '../../src/risk/patterns.js';

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
    expect(joined.map((re) => re.flags).sort()).to.deep.equal(['', '', '', 'i']);
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
