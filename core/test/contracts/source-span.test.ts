import { expect } from 'chai';
import { innermostRange, largestRange, oneLine, spanBetween, tokenSpan } from '../../src/index.js';

describe('source spans', () => {
  it('turns tree-sitter positions into 1-based lines and 0-based columns', () => {
    expect(spanBetween({ row: 0, column: 4 }, { row: 2, column: 1 })).to.deep.equal({
      startLine: 1,
      startCol: 4,
      endLine: 3,
      endCol: 1,
    });
  });

  it('derives a token span from its start and length', () => {
    expect(tokenSpan({ row: 9, column: 12 }, 7)).to.deep.equal({
      startLine: 10,
      startCol: 12,
      endLine: 10,
      endCol: 19,
    });
  });

  it('puts a signature on one line and cuts it with an ellipsis', () => {
    expect(oneLine('function  f(\n  a: number,\n  b: string\n)')).to.equal('function f( a: number, b: string )');
    expect(oneLine('x'.repeat(10), 5)).to.equal('xxxx…');
    expect(oneLine('x'.repeat(5), 5)).to.equal('xxxxx');
  });

  it('finds the innermost and the largest definition by lines', () => {
    const file = { name: 'file', start_line: 1, end_line: 40 };
    const cls = { name: 'cls', start_line: 5, end_line: 30 };
    const method = { name: 'method', start_line: 10, end_line: 12 };
    const twin = { name: 'twin', start_line: 10, end_line: 12 };
    const defs = [file, cls, method, twin];
    expect(innermostRange(defs, 11)?.name).to.equal('method'); // the first of two equal spans
    expect(innermostRange(defs, 12)?.name).to.equal('method'); // end lines are inclusive
    expect(innermostRange(defs, 20)?.name).to.equal('cls');
    expect(innermostRange(defs, 2)?.name).to.equal('file');
    expect(innermostRange(defs, 41)).to.equal(undefined);
    expect(innermostRange([], 1)).to.equal(undefined);
    expect(largestRange(defs)?.name).to.equal('file');
    expect(largestRange([method, twin])?.name).to.equal('method');
    expect(largestRange([])).to.equal(undefined);
  });
});
