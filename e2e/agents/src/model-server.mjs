/**
 * A scripted model server on 127.0.0.1: the real agents talk to it instead of a hosted model. One
 * protocol module per model API is registered by path; each answers from a *script* and the server
 * records every request, so a test can assert what the agent sent (the tools it offered, the tool
 * results it returned).
 *
 * A protocol module's default export has this shape:
 *
 *   /** @type {import('./model-server.mjs').ModelProtocol} *\/
 *   export default { name: 'anthropic-messages', routes: [{ method: 'POST', path: '/v1/messages', handle }] };
 *
 * `handle(req, body, script, res)` gets the node request, its body parsed as JSON (the raw string
 * when it is not JSON, `undefined` when empty), the current script and the node response, and must
 * end the response. A route's `path` is a string (matched exactly, query string ignored) or a RegExp
 * (tested on the path without the query string).
 *
 * The script (one per test, `server.setScript`, which also empties `server.requests`):
 *
 *   { calls: [ToolCall, ...], text: 'done' }
 *   ToolCall = { kind: 'shell', command: 'rm -rf ~' }
 *            | { kind: 'mcp', server: 'agentgov', tool: 'recon', arguments: {...} }
 *
 * The model answers a request that offers tools with `calls[n]`, where n is the number of tool
 * results the conversation already holds, and once every call has a result (or for a request that
 * offers no tools: titles, summaries) with plain text `text`. So the first request gets the first
 * tool call and the next one, carrying its result, gets the text. Each protocol maps a ToolCall
 * onto the tool the agent offered (its shell tool, or the MCP tool whose name ends with the tool's
 * name and names the server) and throws when the agent offered none — the answer is then HTTP 400 (not retried)
 * and the request is recorded with the error.
 */
import { createServer } from 'node:http';

/**
 * @typedef {{ kind: 'shell', command: string } | { kind: 'mcp', server?: string, tool: string, arguments?: object }}
 * ToolCall
 * @typedef {{ calls: ToolCall[], text?: string }} ModelScript
 * @typedef {{
 *   method: string,
 *   path: string | RegExp,
 *   handle: (req: import('node:http').IncomingMessage, body: unknown, script: ModelScript,
 *            res: import('node:http').ServerResponse) => void | Promise<void>
 * }} ProtocolRoute
 * @typedef {{ name: string, routes: ProtocolRoute[] }} ModelProtocol
 * @typedef {{ protocol: string | null, method: string, path: string, headers: object, body: unknown,
 *             status?: number, error?: string }} RecordedRequest
 */

/** The script answer for a conversation holding `results` tool results: a call, or the final text. */
export function nextStep(script, results, offersTools) {
  const calls = script.calls ?? [];
  if (offersTools && results < calls.length) return { call: calls[results] };
  return { text: script.text ?? 'done' };
}

/** Writes one Server-Sent Event. */
export function sse(res, event, data) {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
}

function matches(route, method, path) {
  if (route.method !== method) return false;
  return typeof route.path === 'string' ? route.path === path : route.path.test(path);
}

/**
 * Starts the server on an ephemeral loopback port.
 * @param {{ protocols: ModelProtocol[], script?: ModelScript, log?: (line: string) => void }} options
 */
export async function startModelServer({ protocols, script = { calls: [] }, log }) {
  /** @type {RecordedRequest[]} */
  const requests = [];
  let current = script;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body;
      try {
        body = raw === '' ? undefined : JSON.parse(raw);
      } catch {
        body = raw;
      }
      const path = (req.url ?? '/').split('?')[0];
      const found = protocols
        .flatMap((p) => p.routes.map((route) => ({ p, route })))
        .find(({ route }) => matches(route, req.method, path));
      /** @type {RecordedRequest} */
      const record = {
        protocol: found?.p.name ?? null,
        method: req.method ?? '',
        path: req.url ?? '/',
        headers: req.headers,
        body,
      };
      requests.push(record);
      log?.(`${req.method} ${req.url} → ${found ? found.p.name : 'no route'}`);
      if (!found) {
        record.status = 404;
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { type: 'not_found', message: `the scripted model server has no route for ${req.method} ${path}` },
          }),
        );
        return;
      }
      try {
        await found.route.handle(req, body, current, res);
        record.status = res.statusCode;
      } catch (error) {
        record.status = 400;
        record.error = error instanceof Error ? error.message : String(error);
        log?.(`  error: ${record.error}`);
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: record.error } }));
      }
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    /** Requests a protocol answered (not 404s), in order. */
    answered: (name) => requests.filter((r) => r.protocol === name && r.status !== 404),
    setScript(next) {
      current = next;
      requests.length = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve(undefined));
      }),
  };
}
