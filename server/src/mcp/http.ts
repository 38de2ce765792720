import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentgovError } from '@agentgov/core';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ToolServer } from './tool-server.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const MAX_BODY_BYTES = 4 * 1024 * 1024;
export const MCP_HTTP_PATH = '/mcp';
/** Sessions served at once by default; past it the least recently used idle session is closed. */
export const DEFAULT_MAX_HTTP_SESSIONS = 64;

export interface ServeHttpOptions {
  /** Sessions served at once (default 64). */
  maxSessions?: number;
}

/** A loopback host name: `localhost` (and `*.localhost`), `127.x.x.x`, `::1`. */
function isLoopbackName(name: string): boolean {
  const bare = name.toLowerCase().replace(/^\[|\]$/g, '');
  return LOOPBACK.has(bare) || bare.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** `host[:port]` or `[v6][:port]` → the name. */
function nameOfHost(host: string): string {
  const bracketed = /^(\[[^\]]+\])(?::\d+)?$/.exec(host);
  return bracketed ? bracketed[1]! : host.replace(/:\d+$/, '');
}

/**
 * Why a request may not reach the server, or null: a non-loopback `Host` (a DNS-rebound name) or an
 * `Origin` of a web page elsewhere (the server has no authentication, so a browser tab must not
 * drive it), and, for POST, a body that is not `application/json`.
 */
export function refusal(req: IncomingMessage): { status: number; message: string } | null {
  const host = req.headers.host;
  if (!host || !isLoopbackName(nameOfHost(host)))
    return {
      status: 403,
      message:
        'forbidden: the MCP endpoint answers only requests addressed to a loopback name (localhost, 127.0.0.1, [::1])',
    };
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let ok = false;
    try {
      const url = new URL(origin);
      ok = (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackName(url.hostname);
    } catch {
      ok = false;
    }
    if (!ok)
      return {
        status: 403,
        message:
          `forbidden: requests from origin '${origin}' are refused; only loopback origins ` +
          `may use the MCP endpoint`,
      };
  }
  if (req.method === 'POST') {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json')
      return {
        status: 415,
        message:
          `unsupported media type: POST ${MCP_HTTP_PATH} needs Content-Type: application/json ` +
          `(got ${type ? `'${type}'` : 'none'})`,
      };
  }
  return null;
}

/**
 * `HOST:PORT` (or `[::1]:PORT`) of `--http`; only loopback hosts are accepted, since the server has no authentication.
 */
export function parseHttpAddress(value: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(value.trim());
  const host = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  if (!match || !host || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new AgentgovError('E_INVALID_ARGUMENT', `--http must be HOST:PORT, e.g. 127.0.0.1:7332 (got '${value}')`, {
      value,
    });
  }
  if (!LOOPBACK.has(host))
    throw new AgentgovError(
      'E_INVALID_ARGUMENT',
      `--http only binds loopback addresses (127.0.0.1, ::1, localhost), got '` +
        `${host}': the tool server has no authentication`,
      { host },
    );
  return { host, port };
}

export interface HttpEndpoint {
  url: string;
  close(): Promise<void>;
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(Object.assign(new Error('request body too large'), { status: 413 }));
      else chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(Object.assign(new Error('request body is not valid JSON'), { status: 400, rpc: -32700 }));
      }
    });
    req.on('error', reject);
  });
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * Streamable HTTP on loopback at `/mcp`: an initialize request opens a session (its id in the
 * `mcp-session-id` header) with its own McpServer and session state; later requests carry the id.
 */
export async function serveHttp(
  toolServer: ToolServer,
  host: string,
  port: number,
  options: ServeHttpOptions = {},
): Promise<HttpEndpoint> {
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_HTTP_SESSIONS;
  const transports = new Map<string, StreamableHTTPServerTransport>();
  /** Per session: when its last request started and how many of its POST/DELETE requests are in flight. */
  const activity = new Map<string, { last: number; busy: number }>();
  const hostnames = [host.includes(':') ? `[${host}]` : host, 'localhost', '127.0.0.1', '[::1]'];
  let boundPort = port; // the real port once listening (port 0 picks a free one)

  /**
   * Room for one more session: closes the least recently used idle one at the cap; false when every session is busy.
   */
  const makeRoom = async (): Promise<boolean> => {
    if (transports.size < maxSessions) return true;
    const idle = [...activity.entries()].filter(([, a]) => a.busy === 0).sort((a, b) => a[1].last - b[1].last)[0];
    if (!idle) return false;
    toolServer.options.logger.info('MCP session cap reached; closing the least recently used idle session', {
      max_sessions: maxSessions,
      session: idle[0],
    });
    await transports.get(idle[0])?.close();
    transports.delete(idle[0]);
    activity.delete(idle[0]);
    return true;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refused = refusal(req);
    if (refused) return rpcError(res, refused.status, -32600, refused.message);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== MCP_HTTP_PATH) return rpcError(res, 404, -32601, `not found: the MCP endpoint is ${MCP_HTTP_PATH}`);
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    const seen = typeof sessionId === 'string' ? activity.get(sessionId) : undefined;
    if (seen) {
      seen.last = Date.now();
      if (req.method !== 'GET') {
        seen.busy += 1;
        res.once('close', () => (seen.busy -= 1));
      }
    }
    if (req.method === 'POST') {
      const body = await readJson(req);
      if (existing) return existing.handleRequest(req, res, body);
      if (sessionId !== undefined) return rpcError(res, 404, -32001, 'unknown or expired MCP session id');
      if (!isInitializeRequest(body))
        return rpcError(res, 400, -32600, 'no MCP session: send an initialize request first');
      if (!(await makeRoom()))
        return rpcError(
          res,
          503,
          -32000,
          `too many MCP sessions: all ${maxSessions} are busy; retry later, end one ` +
            `(DELETE ${MCP_HTTP_PATH}) or raise --http-max-sessions`,
        );
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableDnsRebindingProtection: true,
        allowedHosts: hostnames.flatMap((h) => [h, `${h}:${boundPort}`]),
        onsessioninitialized: (id) => {
          transports.set(id, transport);
          activity.set(id, { last: Date.now(), busy: 0 });
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) {
          transports.delete(transport.sessionId);
          activity.delete(transport.sessionId);
        }
      };
      await toolServer.createSession().connect(transport);
      return transport.handleRequest(req, res, body);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!existing) return rpcError(res, 404, -32001, 'unknown or missing MCP session id');
      return existing.handleRequest(req, res);
    }
    res.setHeader('allow', 'GET, POST, DELETE');
    return rpcError(res, 405, -32601, `method ${req.method} not allowed`);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: { status?: number; rpc?: number; message?: string }) => {
      toolServer.options.logger.warn('HTTP request failed', { error: error?.message });
      rpcError(res, error?.status ?? 500, error?.rpc ?? -32603, error?.message ?? 'internal error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  boundPort = address.port;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}${MCP_HTTP_PATH}`,
    close: async () => {
      await Promise.allSettled([...transports.values()].map((t) => t.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
