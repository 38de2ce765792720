import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { eventId, MAX_RESULT_CHARS, parseTranscript } from '../src/index.js';

export const FIXTURE_HOME = fileURLToPath(new URL('../../test/fixtures/agentx-home/', import.meta.url));
const SESSION_A = `${FIXTURE_HOME}projects/-work-demo/sess-aaaa-1111.jsonl`;
const SESSION_B = `${FIXTURE_HOME}projects/-work-demo/sess-bbbb-2222.jsonl`;

describe('agentx-code transcript parser', () => {
  it('turns every tool_use block into an event completed by its tool_result, with the line timestamp and cwd', () => {
    const text = readFileSync(SESSION_A, 'utf8');
    const parsed = parseTranscript(text, { file: SESSION_A });
    expect(parsed.events.map((e) => e.tool_name)).to.deep.equal([
      'Bash',
      'Read',
      'Edit',
      'Grep',
      'mcp__github__create_issue',
      'WebFetch',
      'Glob',
      'Write',
      'MultiEdit',
      'TodoWrite',
      'Bash',
    ]);
    expect(parsed.events.map((e) => e.canonical_tool)).to.deep.equal([
      'shell',
      'read',
      'edit',
      'search',
      'mcp',
      'fetch',
      'search',
      'write',
      'edit',
      'other',
      'shell',
    ]);
    const [ls, read, edit, grep] = parsed.events;
    expect(ls).to.deep.equal({
      id: 'agentx-code:sess-aaaa-1111:toolu_a1',
      framework: 'agentx-code',
      session_id: 'sess-aaaa-1111',
      timestamp: '2026-11-20T10:00:02.000Z',
      cwd: '/work/demo',
      tool_name: 'Bash',
      canonical_tool: 'shell',
      arguments: { command: 'ls -la', description: 'List files' },
      result: { content: 'total 8\ndrwxr-xr-x 2 u u 4096 .\n', is_error: false, timestamp: '2026-11-20T10:00:03.000Z' },
    });
    expect(read?.result?.content).to.equal('# Demo'); // array content blocks are joined
    expect(edit?.result).to.include({ is_error: true, content: 'String not found in file' });
    expect(grep?.id, 'sidechain calls are events of the same session').to.equal(eventId('sess-aaaa-1111', 'toolu_a4'));
    expect(grep?.result?.content).to.equal('src/app.ts:3: // TODO');
    expect(parsed.events[10]?.result?.is_error).to.equal(true); // result in a line that also holds an image block
    expect(parsed.completions).to.deep.equal([]);
  });

  it('counts unknown line types and unknown blocks, and never counts known quiet ones (summary, system, text, thinking, redacted_thinking, image, document)', () => {
    const parsed = parseTranscript(readFileSync(SESSION_A, 'utf8'), { file: SESSION_A });
    expect(parsed.skipped).to.deep.equal({ unknown_line_type: 1, unknown_block_type: 1 });
    expect(parsed.lines).to.equal(14);
    expect(parsed.consumedBytes).to.equal(Buffer.byteLength(readFileSync(SESSION_A)));
  });

  it('skips and counts broken lines mid-file, keeps every other event, and leaves a truncated last line unconsumed', () => {
    const bytes = readFileSync(SESSION_B);
    const parsed = parseTranscript(bytes.toString('utf8'), { file: SESSION_B });
    expect(parsed.events.map((e) => e.id)).to.deep.equal(
      ['toolu_b1', 'toolu_b2', 'toolu_b3'].map((id) => eventId('sess-bbbb-2222', id)),
    );
    expect(parsed.skipped).to.deep.equal({ malformed_json: 1, not_an_object: 1, invalid_tool_use: 1 });
    const lastLine = bytes.subarray(bytes.lastIndexOf(0x0a) + 1);
    expect(lastLine.length).to.be.greaterThan(0);
    expect(parsed.consumedBytes).to.equal(bytes.length - lastLine.length);
  });

  it('ids are stable: parsing the same transcript twice yields identical events', () => {
    const text = readFileSync(SESSION_A, 'utf8');
    expect(parseTranscript(text, { file: SESSION_A }).events).to.deep.equal(
      parseTranscript(text, { file: SESSION_A }).events,
    );
  });

  it('a result in a later chunk than its call becomes a completion; state carries the cwd across chunks', () => {
    const text = readFileSync(SESSION_A, 'utf8');
    const cut = text.indexOf('\n', text.indexOf('toolu_a1')) + 1; // right after the call, before its result
    const state: Record<string, unknown> = {};
    const first = parseTranscript(text.slice(0, cut), { file: SESSION_A, state });
    const second = parseTranscript(text.slice(cut), { file: SESSION_A, state });
    expect(first.events.map((e) => e.id)).to.deep.equal([eventId('sess-aaaa-1111', 'toolu_a1')]);
    expect(first.events[0]?.result).to.equal(undefined);
    expect(second.completions[0]).to.deep.equal({
      event_id: eventId('sess-aaaa-1111', 'toolu_a1'),
      result: { content: 'total 8\ndrwxr-xr-x 2 u u 4096 .\n', is_error: false, timestamp: '2026-11-20T10:00:03.000Z' },
    });
    expect(first.consumedBytes + second.consumedBytes).to.equal(Buffer.byteLength(text));
  });

  it('consumes an unterminated last line that is already a complete JSON object; counts multi-byte text in bytes', () => {
    const line = JSON.stringify({
      type: 'assistant',
      sessionId: 's',
      timestamp: 't',
      cwd: '/é',
      message: { content: [{ type: 'tool_use', id: 'x', name: 'Bash', input: { command: 'echo ünïcode' } }] },
    });
    const parsed = parseTranscript(line, { file: '/p/s.jsonl' });
    expect(parsed.events).to.have.length(1);
    expect(parsed.consumedBytes).to.equal(Buffer.byteLength(line));
  });

  it('uses the file name as the session when lines carry no sessionId, and truncates huge results', () => {
    const big = 'x'.repeat(MAX_RESULT_CHARS + 50);
    const text = [
      JSON.stringify({
        type: 'assistant',
        timestamp: '2026-01-01T00:00:00Z',
        message: { content: [{ type: 'tool_use', id: 'k', name: 'Read', input: { file_path: '/a' } }] },
      }),
      JSON.stringify({
        type: 'user',
        timestamp: '2026-01-01T00:00:01Z',
        message: { content: [{ type: 'tool_result', tool_use_id: 'k', content: big }] },
      }),
      '',
    ].join('\n');
    const [event] = parseTranscript(text, { file: '/p/my-session.jsonl' }).events;
    expect(event?.session_id).to.equal('my-session');
    expect(event?.cwd).to.equal('');
    expect(event?.result?.content).to.have.length.lessThan(MAX_RESULT_CHARS + 40);
    expect(event?.result?.content).to.match(/…\[50 more chars\]$/);
  });

  it('counts a tool_result without tool_use_id and a message without content blocks', () => {
    const text = [
      JSON.stringify({ type: 'user', sessionId: 's', message: { content: [{ type: 'tool_result', content: 'x' }] } }),
      JSON.stringify({ type: 'assistant', sessionId: 's' }),
      JSON.stringify({ type: 42 }),
      '',
    ].join('\n');
    expect(parseTranscript(text, { file: '/s.jsonl' }).skipped).to.deep.equal({
      invalid_tool_result: 1,
      missing_message: 1,
      unknown_line_type: 1,
    });
  });
});
