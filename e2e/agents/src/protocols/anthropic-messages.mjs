/**
 * The Anthropic Messages API (`POST /v1/messages`, SSE when `stream: true`), as Claude Code calls it
 * through `ANTHROPIC_BASE_URL`. A shell call becomes a `tool_use` of the `Bash` tool, an MCP call one
 * of `mcp__<server>__<tool>`; tool results are the `tool_result` blocks of the user messages.
 */
import { randomBytes } from 'node:crypto';
import { nextStep, sse } from '../model-server.mjs';

/** The assistant's tool_use blocks by id, and the text of every tool_result, in conversation order. */
function conversation(body) {
  const uses = new Map();
  const results = [];
  for (const message of body?.messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (block?.type === 'tool_use') uses.set(block.id, block);
      if (block?.type === 'tool_result') {
        const text =
          typeof block.content === 'string' ? block.content : (block.content ?? []).map((c) => c?.text ?? '').join('');
        results.push({ id: block.tool_use_id, text });
      }
    }
  }
  return { uses, results };
}

/**
 * Claude Code defers MCP tools (and MCP servers still connecting) behind its `ToolSearch` tool, as its
 * system prompt tells the model: a scripted MCP call first fetches the tool with
 * `ToolSearch {query: "select:<name>"}`, as a model does. Those lookups are not steps of the script.
 */
const SEARCH = 'ToolSearch';

/** The tool_use block for a scripted call, on a tool the request offered (or ToolSearch found). */
function toolUse(call, tools, found) {
  const names = tools.map((t) => t.name);
  const id = `toolu_e2e_${randomBytes(8).toString('hex')}`;
  if (call.kind === 'shell') {
    if (!names.includes('Bash')) throw new Error(`the agent offered no Bash tool (offered: ${names.join(', ')})`);
    return { type: 'tool_use', id, name: 'Bash', input: { command: call.command, description: 'scripted shell call' } };
  }
  const server = call.server ?? 'agentgov';
  const wanted = `mcp__${server}__${call.tool}`;
  const known = [...names, ...found];
  const name = known.find((n) => n === wanted) ?? known.find((n) => n.includes(server) && n.endsWith(`__${call.tool}`));
  if (name) return { type: 'tool_use', id, name, input: call.arguments ?? {} };
  if (names.includes(SEARCH)) return { type: 'tool_use', id, name: SEARCH, input: { query: `select:${wanted}` } };
  throw new Error(
    `the agent offered no MCP tool ${server}/${call.tool} and no ToolSearch (offered: ${names.join(', ')})`,
  );
}

function answer(req, body, script, res) {
  const tools = Array.isArray(body?.tools) ? body.tools.filter((t) => typeof t?.name === 'string') : [];
  const { uses, results } = conversation(body);
  const stepResults = results.filter((r) => uses.get(r.id)?.name !== SEARCH).length;
  const found = results
    .filter((r) => uses.get(r.id)?.name === SEARCH)
    .flatMap((r) => [...r.text.matchAll(/"name":\s*"([^"]+)"/g)].map((m) => m[1]));
  const step = nextStep(script, stepResults, tools.length > 0);
  const block = step.call ? toolUse(step.call, tools, found) : { type: 'text', text: step.text };
  const model = body?.model ?? 'claude-e2e';
  const message = {
    id: `msg_e2e_${randomBytes(8).toString('hex')}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [block],
    stop_reason: step.call ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
  if (!body?.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(message));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  sse(res, 'message_start', {
    type: 'message_start',
    message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } },
  });
  if (block.type === 'text') {
    sse(res, 'content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    });
    sse(res, 'content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: block.text },
    });
  } else {
    sse(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { ...block, input: {} } });
    sse(res, 'content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
    });
  }
  sse(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
  sse(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: 5 },
  });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

/** @type {import('../model-server.mjs').ModelProtocol} */
export default {
  name: 'anthropic-messages',
  routes: [
    { method: 'POST', path: '/v1/messages', handle: answer },
    {
      method: 'POST',
      path: '/v1/messages/count_tokens',
      handle(_req, _body, _script, res) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: 10 }));
      },
    },
  ],
};
