import { expect } from 'chai';
import { clipResultContent, MAX_RESULT_CHARS, walkJsonLines, type SkipCounts } from '../../src/index.js';

function walk(text: string): {
  records: [unknown, number][];
  skipped: SkipCounts;
  lines: number;
  consumedBytes: number;
} {
  const records: [unknown, number][] = [];
  const skipped: SkipCounts = {};
  const result = walkJsonLines(text, skipped, (record, at) => records.push([record, at]));
  return { records, skipped, ...result };
}

describe('capture/json-lines', () => {
  it('hands over each object line with its byte offset; counts malformed lines and non-objects; skips blank lines', () => {
    const text = '{"a":"é"}\n\n[1]\nnot json\n{"b":2}\n';
    const out = walk(text);
    expect(out.records).to.deep.equal([
      [{ a: 'é' }, 0],
      [{ b: 2 }, Buffer.byteLength('{"a":"é"}\n\n[1]\nnot json\n')],
    ]);
    expect(out.skipped).to.deep.equal({ not_an_object: 1, malformed_json: 1 });
    expect(out.lines).to.equal(5);
    expect(out.consumedBytes).to.equal(Buffer.byteLength(text));
  });

  it('leaves an unterminated last line for later unless it is already a whole object', () => {
    expect(walk('{"a":1}\n{"b":').consumedBytes).to.equal(8);
    const whole = walk('{"a":1}\n{"b":2}');
    expect(whole.consumedBytes).to.equal(15);
    expect(whole.records).to.have.length(2);
  });

  it('clips long results and says by how much', () => {
    expect(clipResultContent('x'.repeat(MAX_RESULT_CHARS + 5))).to.match(/…\[5 more chars\]$/);
    expect(clipResultContent('short')).to.equal('short');
  });
});
