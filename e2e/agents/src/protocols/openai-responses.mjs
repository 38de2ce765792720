/**
 * The OpenAI Responses API (`POST /v1/responses`, SSE), as Codex calls it through a custom
 * `model_providers` entry (`base_url = "<server>/v1"`, `wire_api = "responses"`). A shell call
 * becomes a `function_call` of the shell tool the request offered (`shell_command` / `exec_command`
 * take a string, `shell` an argv; `local_shell` gets a `local_shell_call`), an MCP call a
 * `function_call` of the tool named `mcp__<server>__<tool>`; tool results are the `*_output` items of
 * the input.
 */
import { randomBytes } from 'node:crypto';
import { nextStep, sse } from '../model-server.mjs';

/** @param {any} body */
function toolResults(body) {
  const input = Array.isArray(body?.input) ? body.input : [];
  return input.filter((item) => typeof item?.type === 'string' && item.type.endsWith('_call_output')).length;
}

const toolName = (tool) => tool?.name ?? tool?.type;

/**
 * Tools Codex's `tool_search` returned in this conversation (`tool_search_output` items): Codex defers
 * MCP tools, the model finds them with a `tool_search_call` first, as a model does. Namespaced
 * tools come back as `{ namespace, name }`.
 */
function searchedTools(body) {
  const input = Array.isArray(body?.input) ? body.input : [];
  return input
    .filter((item) => item?.type === 'tool_search_output')
    .flatMap((item) => item.tools ?? [])
    .flatMap((tool) =>
      tool?.type === 'namespace'
        ? (tool.tools ?? []).map((t) => ({ namespace: tool.name, name: t.name }))
        : [{ name: tool?.name }],
    );
}

/** The output item for a scripted call, on a tool the request offered. */
function callItem(call, tools, searched = []) {
  const names = tools.map(toolName);
  const call_id = `call_e2e_${randomBytes(8).toString('hex')}`;
  const id = `fc_e2e_${randomBytes(8).toString('hex')}`;
  const fn = (name, args) => ({
    type: 'function_call',
    id,
    status: 'completed',
    name,
    arguments: JSON.stringify(args),
    call_id,
  });
  if (call.kind === 'shell') {
    if (names.includes('shell_command')) return fn('shell_command', { command: call.command });
    if (names.includes('exec_command')) return fn('exec_command', { cmd: call.command });
    if (names.includes('shell')) return fn('shell', { command: ['bash', '-lc', call.command] });
    if (names.includes('local_shell')) {
      return {
        type: 'local_shell_call',
        id,
        call_id,
        status: 'completed',
        action: { type: 'exec', command: ['bash', '-lc', call.command] },
      };
    }
    throw new Error(`the agent offered no shell tool (offered: ${names.join(', ')})`);
  }
  const server = call.server ?? 'agentgov';
  const name =
    names.find((n) => n === `mcp__${server}__${call.tool}`) ??
    names.find((n) => typeof n === 'string' && n.includes(server) && n.endsWith(call.tool));
  if (name) return fn(name, call.arguments ?? {});
  const hit =
    searched.find((t) => t.namespace === `mcp__${server}` && t.name === call.tool) ??
    searched.find((t) => t.name === `mcp__${server}__${call.tool}`);
  if (hit) return { ...fn(hit.name, call.arguments ?? {}), ...(hit.namespace ? { namespace: hit.namespace } : {}) };
  if (names.includes('tool_search'))
    return {
      type: 'tool_search_call',
      id,
      call_id,
      status: 'completed',
      execution: 'client',
      arguments: { query: `${server} ${call.tool}` },
    };
  throw new Error(
    `the agent offered no MCP tool ${server}/${call.tool} and no tool_search (offered: ${names.join(', ')})`,
  );
}

/** Codex lists MCP tools inside a namespace tool in some versions: flatten those. */
function offeredTools(body) {
  const tools = Array.isArray(body?.tools) ? body.tools : [];
  return tools.flatMap((tool) => (Array.isArray(tool?.tools) ? [tool, ...tool.tools] : [tool]));
}

function answer(_req, body, script, res) {
  const tools = offeredTools(body);
  const step = nextStep(script, toolResults(body), tools.length > 0);
  const item = step.call
    ? callItem(step.call, tools, searchedTools(body))
    : {
        type: 'message',
        id: `msg_e2e_${randomBytes(8).toString('hex')}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: step.text, annotations: [] }],
      };
  const id = `resp_e2e_${randomBytes(8).toString('hex')}`;
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
  const response = { id, object: 'response', status: 'in_progress', model: body?.model ?? 'gpt-e2e', output: [] };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  sse(res, 'response.created', { type: 'response.created', response });
  sse(res, 'response.output_item.added', { type: 'response.output_item.added', output_index: 0, item });
  if (item.type === 'message') {
    sse(res, 'response.output_text.delta', {
      type: 'response.output_text.delta',
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      delta: step.text,
    });
  }
  sse(res, 'response.output_item.done', { type: 'response.output_item.done', output_index: 0, item });
  sse(res, 'response.completed', {
    type: 'response.completed',
    response: { ...response, status: 'completed', output: [item], usage },
  });
  res.end();
}

/** @type {import('../model-server.mjs').ModelProtocol} */
export default {
  name: 'openai-responses',
  routes: [{ method: 'POST', path: '/v1/responses', handle: answer }],
};
