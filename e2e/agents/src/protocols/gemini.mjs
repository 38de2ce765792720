/**
 * The Gemini API (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse` and
 * `:generateContent`), as Gemini CLI calls it through `GOOGLE_GEMINI_BASE_URL` with an API key. A
 * shell call becomes a `functionCall` of `run_shell_command`, an MCP call one of the offered
 * function whose name names the server and ends with the tool (`mcp_<server>_<tool>`); tool results
 * are the `functionResponse` parts of the contents.
 *
 * Gemini CLI also sends requests of its own (model routing, next-speaker checks) that ask for JSON
 * matching a schema (`generationConfig.responseJsonSchema`): they get a JSON object shaped by that
 * schema and never use the script, so the conversation's turns stay the script's.
 */
import { nextStep } from '../model-server.mjs';

const declarations = (body) =>
  (Array.isArray(body?.tools) ? body.tools : []).flatMap((t) =>
    Array.isArray(t?.functionDeclarations) ? t.functionDeclarations : [],
  );

const toolResults = (body) =>
  (Array.isArray(body?.contents) ? body.contents : [])
    .flatMap((c) => (Array.isArray(c?.parts) ? c.parts : []))
    .filter((p) => p?.functionResponse).length;

/** A value of the JSON schema (Gemini's `type` names are upper case): the first enum value, 1, false, 'x'. */
function sample(schema) {
  if (Array.isArray(schema?.enum) && schema.enum.length) return schema.enum[0];
  const type = String(schema?.type ?? 'object').toLowerCase();
  if (type === 'object')
    return Object.fromEntries(Object.entries(schema?.properties ?? {}).map(([k, v]) => [k, sample(v)]));
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return false;
  return 'x';
}

function callPart(call, offered) {
  const names = offered.map((d) => d?.name);
  if (call.kind === 'shell') {
    if (!names.includes('run_shell_command'))
      throw new Error(`the agent offered no shell tool (offered: ${names.join(', ')})`);
    return { functionCall: { name: 'run_shell_command', args: { command: call.command } } };
  }
  const server = call.server ?? 'agentgov';
  const name =
    names.find((n) => n === `mcp_${server}_${call.tool}`) ??
    names.find((n) => typeof n === 'string' && n.includes(server) && n.endsWith(call.tool));
  if (!name) throw new Error(`the agent offered no MCP tool ${server}/${call.tool} (offered: ${names.join(', ')})`);
  return { functionCall: { name, args: call.arguments ?? {} } };
}

function answer(req, body, script, res) {
  const schema = body?.generationConfig?.responseJsonSchema ?? body?.generationConfig?.responseSchema;
  let parts;
  if (schema) {
    parts = [{ text: JSON.stringify(sample(schema)) }];
  } else {
    const offered = declarations(body);
    const step = nextStep(script, toolResults(body), offered.length > 0);
    parts = [step.call ? callPart(step.call, offered) : { text: step.text }];
  }
  const chunk = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'gemini-e2e',
  };
  if ((req.url ?? '').includes('alt=sse')) {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
  } else {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(chunk));
  }
}

function countTokens(_req, _body, _script, res) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ totalTokens: 10 }));
}

/** @type {import('../model-server.mjs').ModelProtocol} */
export default {
  name: 'gemini',
  routes: [
    { method: 'POST', path: /^\/v1beta\/models\/[^/:]+:(?:streamGenerateContent|generateContent)$/, handle: answer },
    { method: 'POST', path: /^\/v1beta\/models\/[^/:]+:countTokens$/, handle: countTokens },
  ],
};

/** The function calls the model sent, in order, from the recorded requests' contents. */
export function functionCalls(requests) {
  const calls = [];
  const seen = new Set();
  for (const request of requests) {
    for (const content of request.body?.contents ?? []) {
      for (const part of content?.parts ?? []) {
        if (!part?.functionCall) continue;
        const key = JSON.stringify([part.functionCall.id, part.functionCall.name, part.functionCall.args]);
        if (!seen.has(key)) calls.push(part.functionCall);
        seen.add(key);
      }
    }
  }
  return calls;
}

/** The function responses Gemini CLI sent back, in order of first sighting. */
export function functionResponses(requests) {
  const out = new Map();
  for (const request of requests) {
    for (const content of request.body?.contents ?? []) {
      for (const part of content?.parts ?? [])
        if (part?.functionResponse) out.set(part.functionResponse.id ?? out.size, part.functionResponse);
    }
  }
  return [...out.values()];
}

/** The names of the functions Gemini CLI offered in its last main-conversation request. */
export const offeredFunctions = (requests) =>
  declarations([...requests].reverse().find((r) => declarations(r.body).length)?.body).map((d) => d.name);
