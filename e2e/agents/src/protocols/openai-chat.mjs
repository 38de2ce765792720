/**
 * OpenAI chat completions (`POST /v1/chat/completions`, streamed or not), as Copilot CLI calls it
 * for a BYOK provider (`COPILOT_PROVIDER_BASE_URL=<server>/v1`, `COPILOT_PROVIDER_TYPE=openai`). A
 * shell call becomes a `tool_calls` entry of the offered `bash` tool, an MCP call one of the offered
 * function whose name names the server and ends with the tool (`<server>-<tool>`); tool results are
 * the `role: "tool"` messages.
 */
import { randomBytes } from 'node:crypto';
import { nextStep } from '../model-server.mjs';

const functionNames = (body) =>
  (Array.isArray(body?.tools) ? body.tools : []).map((t) => t?.function?.name).filter((n) => typeof n === 'string');
const toolResults = (body) =>
  (Array.isArray(body?.messages) ? body.messages : []).filter((m) => m?.role === 'tool').length;

function toolCall(call, names) {
  const id = `call_e2e_${randomBytes(8).toString('hex')}`;
  const fn = (name, args) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
  if (call.kind === 'shell') {
    const shell = ['bash', 'shell', 'run_shell_command'].find((n) => names.includes(n));
    if (!shell) throw new Error(`the agent offered no shell tool (offered: ${names.join(', ')})`);
    return fn(shell, { command: call.command, description: `run ${call.command}` });
  }
  const server = call.server ?? 'agentgov';
  const name =
    names.find((n) => n === `${server}-${call.tool}`) ?? names.find((n) => n.includes(server) && n.endsWith(call.tool));
  if (!name) throw new Error(`the agent offered no MCP tool ${server}/${call.tool} (offered: ${names.join(', ')})`);
  return fn(name, call.arguments ?? {});
}

function answer(_req, body, script, res) {
  const names = functionNames(body);
  const step = nextStep(script, toolResults(body), names.length > 0);
  const call = step.call ? toolCall(step.call, names) : undefined;
  const id = `chatcmpl-e2e-${randomBytes(6).toString('hex')}`;
  const model = body?.model ?? 'gpt-e2e';
  const finish = call ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (body?.stream) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const delta = call
      ? { role: 'assistant', content: null, tool_calls: [{ index: 0, ...call }] }
      : { role: 'assistant', content: step.text };
    const chunk = (d, finishReason, extra = {}) => {
      const choices = [{ index: 0, delta: d, finish_reason: finishReason }];
      const body = { id, object: 'chat.completion.chunk', created: 1, model, choices, ...extra };
      return `data: ${JSON.stringify(body)}\n\n`;
    };
    res.write(chunk(delta, null));
    res.write(chunk({}, finish, { usage }));
    res.end('data: [DONE]\n\n');
    return;
  }
  const message = call
    ? { role: 'assistant', content: null, tool_calls: [call] }
    : { role: 'assistant', content: step.text };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id,
      object: 'chat.completion',
      created: 1,
      model,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    }),
  );
}

/** @type {import('../model-server.mjs').ModelProtocol} */
export default {
  name: 'openai-chat',
  routes: [{ method: 'POST', path: '/v1/chat/completions', handle: answer }],
};

/** The tool calls the model sent (as the agent echoed them back), in order. */
export function assistantToolCalls(requests) {
  const calls = new Map();
  for (const request of requests) {
    for (const message of request.body?.messages ?? []) {
      if (message?.role === 'assistant') for (const c of message.tool_calls ?? []) calls.set(c.id, c);
    }
  }
  return [...calls.values()];
}

/** The tool results the agent sent back, by tool call id. */
export function toolMessages(requests) {
  const out = new Map();
  for (const request of requests) {
    for (const message of request.body?.messages ?? []) {
      if (message?.role !== 'tool') continue;
      const text =
        typeof message.content === 'string'
          ? message.content
          : (message.content ?? []).map((c) => c?.text ?? '').join('');
      out.set(message.tool_call_id, text);
    }
  }
  return [...out.entries()].map(([id, text]) => ({ id, text }));
}

/** The function names offered in the last request that offered any. */
export const offeredFunctions = (requests) =>
  functionNames([...requests].reverse().find((r) => functionNames(r.body).length)?.body);
