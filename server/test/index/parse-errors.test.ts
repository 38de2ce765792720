import { expect } from 'chai';
import { extractFile } from '../../src/index/extract-file.js';
import { LANGUAGES } from './fixture-repos.js';

describe('parse errors of one file (extractFile)', () => {
  it('a clean file has none', () => {
    expect(extractFile('a.py', 'def f():\n    return 1\n', LANGUAGES)!.parseErrors).to.equal(null);
    expect(extractFile('a.ts', 'export const x = 1;\n', LANGUAGES)!.parseErrors).to.equal(null);
  });

  it('counts error and missing nodes and keeps the definitions the partial tree still has', () => {
    const facts = extractFile('m.py', 'def kept():\n    return 1\n\n\ndef half(x:\n    return lost(x)\n', LANGUAGES)!;
    expect(facts.parseErrors).to.include({ first_line: 5 });
    expect(facts.parseErrors!.errors + facts.parseErrors!.missing).to.be.greaterThan(0);
    expect(facts.definitions.map((d) => d.name)).to.include('kept');
  });

  it('a missing token alone (tree-sitter assumed it) is counted as missing, at its place', () => {
    const facts = extractFile('m.py', 'def ok():\n    return 1\n\ndef broken(:\n    pass\n', LANGUAGES)!;
    expect(facts.parseErrors).to.deep.equal({ errors: 0, missing: 1, first_line: 4, first_col: 11 });
    expect(facts.definitions.map((d) => d.name)).to.deep.equal(['ok', 'broken']);
  });

  it('the column is in UTF-16 code units, as every index column', () => {
    // "é" is 2 bytes in UTF-8 and 1 code unit: the missing ")" is at column 8 in both spellings
    expect(extractFile('m.py', 'def f(a, :\n    pass\n', LANGUAGES)!.parseErrors).to.include({
      first_line: 1,
      first_col: 8,
    });
    expect(extractFile('m.py', 'def f(é, :\n    pass\n', LANGUAGES)!.parseErrors).to.include({
      first_line: 1,
      first_col: 8,
    });
  });
});
