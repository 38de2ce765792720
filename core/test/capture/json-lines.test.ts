import { expect } from 'chai';
import {
  captureChunk,
  clipResultContent,
  MAX_RESULT_CHARS,
  walkJsonLines,
  type CaptureChunk,
  type SkipCounts,
  type ToolCallEvent,
} from '../../src/index.js';

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

describe("a chunk's calls, results and skips (captureChunk)", function () {
  const chunk = (): CaptureChunk<object> => captureChunk({}, 'capture.jsonl');
  const call = (id: string): ToolCallEvent => ({
    id,
    framework: 'test',
    session_id: 's',
    timestamp: '2026-11-29T00:00:00.000Z',
    cwd: '/w',
    tool_name: 'Bash',
    canonical_tool: 'shell',
    arguments: { command: 'ls' },
  });
  const result = { content: 'ok', is_error: false, timestamp: '2026-11-29T00:00:01.000Z' };

  it("adds a call once per id and counts a repeat under the parser's reason", function () {
    const c = chunk();
    expect(c.addCall(call('a'))).to.equal(true);
    expect(c.addCall({ ...call('a'), tool_name: 'Other' })).to.equal(false);
    expect(c.addCall(call('a'), 'repeated_tool_use')).to.equal(false);
    c.skip('invalid_tool_call');
    expect(c.events.map((e) => e.tool_name)).to.deep.equal(['Bash']);
    expect(c.byId.get('a')?.tool_name).to.equal('Bash');
    expect(c.skipped).to.deep.equal({ repeated_tool_call: 1, repeated_tool_use: 1, invalid_tool_call: 1 });
  });

  it("sets a result on a call of this chunk, and keeps one for an earlier chunk's call as a completion", function () {
    const c = chunk();
    c.addCall(call('a'));
    c.complete('a', result);
    c.complete('earlier', result);
    expect(c.events[0]?.result).to.deep.equal(result);
    expect(c.completions).to.deep.equal([{ event_id: 'earlier', result }]);
  });
});
