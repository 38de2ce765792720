import { expect } from 'chai';
import { oneLine, spanBetween, tokenSpan } from '../../src/index.js';

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
});
