import { expect } from 'chai';
import { gateFormat } from '@agentgov/plugin-framework-agentx';
import { parseGateText as parseWith } from '../../src/gate/input.js';

const parseGateText = (text: string) => parseWith(text, gateFormat);

describe('gate/input', () => {
  const valid: [string, unknown, Record<string, unknown>][] = [
    [
      'Score request shape',
      { tool_name: 'Bash', arguments: { command: 'ls' }, session_id: 's1' },
      { framework: 'gate', tool_name: 'Bash', arguments: { command: 'ls' }, session_id: 's1' },
    ],
    [
      'agentx-code hook payload',
      {
        session_id: 's2',
        transcript_path: '/t.jsonl',
        cwd: '/p',
        hook_event_name: 'PreToolUse',
        tool_name: 'Read',
        tool_input: { file_path: '/p/a' },
        tool_use_id: 'tu1',
        extra: 1,
      },
      {
        framework: 'agentx-code',
        tool_name: 'Read',
        arguments: { file_path: '/p/a' },
        session_id: 's2',
        cwd: '/p',
        tool_use_id: 'tu1',
        transcript_path: '/t.jsonl',
        hook_event_name: 'PreToolUse',
      },
    ],
  ];
  for (const [name, value, expected] of valid) {
    it(`accepts the ${name}`, () => expect(parseGateText(JSON.stringify(value))).to.deep.equal(expected));
  }

  const invalid: [string, string, string, RegExp][] = [
    ['empty stdin', '  \n', 'input_empty', /empty/],
    ['text that is not JSON', '{"tool_name": ', 'input_malformed', /not valid JSON/],
    ['an array', '[]', 'input_invalid', /an array/],
    ['null', 'null', 'input_invalid', /null/],
    ['a missing tool_name', '{"arguments":{},"session_id":"s"}', 'input_invalid', /'tool_name'/],
    ['a numeric session_id', '{"tool_name":"Bash","arguments":{},"session_id":3}', 'input_invalid', /'session_id'/],
    [
      'arguments that are a string',
      '{"tool_name":"Bash","arguments":"ls","session_id":"s"}',
      'input_invalid',
      /'arguments' must be an object/,
    ],
    [
      'tool_input that is null',
      '{"tool_name":"Bash","tool_input":null,"session_id":"s"}',
      'input_invalid',
      /'tool_input' must be an object/,
    ],
    ['a numeric cwd', '{"tool_name":"Bash","tool_input":{},"session_id":"s","cwd":1}', 'input_invalid', /'cwd'/],
    [
      'a PostToolUse hook event',
      '{"tool_name":"Bash","tool_input":{},"session_id":"s","hook_event_name":"PostToolUse"}',
      'input_invalid',
      /PreToolUse events only/,
    ],
  ];
  for (const [name, text, code, message] of invalid) {
    it(`rejects ${name} as ${code}`, () => {
      const result = parseGateText(text) as { code: string; message: string };
      expect(result.code).to.equal(code);
      expect(result.message).to.match(message);
    });
  }
});

describe('gate/input on the wire', () => {
  it('the checked form of a hook payload keeps its framework when checked again by the server', async () => {
    const { toGateInput } = await import('../../src/gate/input.js');
    const first = parseGateText(
      JSON.stringify({ session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't' }),
    );
    expect(toGateInput(JSON.parse(JSON.stringify(first)))).to.deep.equal(first);
  });
});

describe('gate/input: the normalised form on the wire', () => {
  it('a form without a framework is refused by the server', async () => {
    const { toGateInput } = await import('../../src/gate/input.js');
    expect(toGateInput({ session_id: 's', tool_name: 'Bash', arguments: {} })).to.deep.equal({
      code: 'input_invalid',
      message: "field 'framework' must be a non-empty string",
    });
  });
});
