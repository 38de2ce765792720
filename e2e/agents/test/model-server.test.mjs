import assert from 'node:assert/strict';
import { startModelServer } from '../src/model-server.mjs';
import anthropic from '../src/protocols/anthropic-messages.mjs';
import openaiResponses from '../src/protocols/openai-responses.mjs';

/** Reads an SSE body into its `data:` objects. */
const events = (text) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)));

describe('the scripted model server', () => {
  let server;
  before(async () => {
    server = await startModelServer({ protocols: [anthropic, openaiResponses] });
  });
  after(() => server.close());

  it('answers an Anthropic request with the scripted Bash call, then with text once the result is there', async () => {
    server.setScript({ calls: [{ kind: 'shell', command: 'rm -rf ~' }], text: 'finished' });
    const tools = [
      { name: 'Bash', input_schema: {} },
      { name: 'Read', input_schema: {} },
    ];
    const post = (messages) =>
      fetch(`${server.url}/v1/messages?beta=true`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', stream: true, tools, messages }),
      }).then((r) => r.text());
    const first = events(await post([{ role: 'user', content: 'go' }]));
    const start = first.find((e) => e.type === 'content_block_start');
    assert.equal(start.content_block.name, 'Bash');
    const input = first.find((e) => e.type === 'content_block_delta').delta.partial_json;
    assert.deepEqual(JSON.parse(input), { command: 'rm -rf ~', description: 'scripted shell call' });
    const result = {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: start.content_block.id, content: 'denied' }],
    };
    const second = events(
      await post([{ role: 'user', content: 'go' }, { role: 'assistant', content: [start.content_block] }, result]),
    );
    assert.equal(second.find((e) => e.type === 'content_block_delta').delta.text, 'finished');
    assert.equal(server.requests.length, 2);
    assert.deepEqual(
      server.requests[0].body.tools.map((t) => t.name),
      ['Bash', 'Read'],
    );
  });

  it('answers a Responses request with a call of the offered MCP tool, and records an unknown route as 404', async () => {
    server.setScript({ calls: [{ kind: 'mcp', tool: 'recon', arguments: { query: 'x' } }] });
    const body = {
      model: 'm',
      stream: true,
      input: [],
      tools: [
        { type: 'function', name: 'shell' },
        { type: 'function', name: 'mcp__agentgov__recon' },
      ],
    };
    const text = await fetch(`${server.url}/v1/responses`, { method: 'POST', body: JSON.stringify(body) }).then((r) =>
      r.text(),
    );
    const done = events(text).find((e) => e.type === 'response.output_item.done');
    assert.equal(done.item.name, 'mcp__agentgov__recon');
    assert.deepEqual(JSON.parse(done.item.arguments), { query: 'x' });
    assert.equal(events(text).at(-1).type, 'response.completed');
    const missing = await fetch(`${server.url}/v1/models`);
    assert.equal(missing.status, 404);
    assert.deepEqual(
      server.requests.map((r) => [r.path, r.status]),
      [
        ['/v1/responses', 200],
        ['/v1/models', 404],
      ],
    );
  });
});
