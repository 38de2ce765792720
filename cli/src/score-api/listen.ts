/**
 * Binding the Score API: `HOST:PORT` parsing, the loopback rule (a non-loopback bind needs
 * `score.token`), and a server whose address and shutdown the caller controls.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentgovError } from '@agentgov/core';
import type Koa from 'koa';

export interface ListenAddress {
  host: string;
  port: number;
}

const LOOPBACK_NAMES = new Set(['localhost', '::1', '[::1]']);

export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host);
}

/** `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (localhost). Port 0 picks a free port. */
export function parseListen(value: string): ListenAddress {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[3]) : NaN;
  if (!match || port > 65535)
    throw new AgentgovError(
      'E_INVALID_ARGUMENT',
      `listen address must be HOST:PORT with a port 0-65535 (got '${value}')`,
      { value },
    );
  return { host: match[1] ?? (match[2] || 'localhost'), port };
}

/** Which server binds, as messages name it. */
export interface ListeningService {
  service: string;
  tokenKey: string;
}

const SCORE_API: ListeningService = { service: 'the Score API', tokenKey: 'score.token' };

export function assertBindAllowed(
  address: ListenAddress,
  token: string | null,
  { service, tokenKey }: ListeningService = SCORE_API,
): void {
  if (!isLoopback(address.host) && !token) {
    const where = `${address.host}:${address.port}`;
    throw new AgentgovError(
      'E_SCORE_TOKEN_REQUIRED',
      `refusing to serve ${service} on non-loopback address ${where} without ${tokenKey}`,
      { ...address },
    );
  }
}

export interface RunningScoreServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function listenScoreApp(
  app: Koa,
  address: ListenAddress,
  token: string | null,
  listening: ListeningService = SCORE_API,
): Promise<RunningScoreServer> {
  assertBindAllowed(address, token, listening);
  const { service } = listening;
  const server = createServer(app.callback());
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(
          new AgentgovError(
            'E_ADDRESS_IN_USE',
            `${service} cannot listen on ${address.host}:${address.port}: address in use`,
            { ...address },
          ),
        );
      else
        reject(
          new AgentgovError(
            'E_ADDRESS_IN_USE',
            `${service} cannot listen on ${address.host}:${address.port}: ${error.code ?? error.message}`,
            { ...address },
          ),
        );
    });
    server.listen(address.port, address.host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return {
    server,
    url: `http://${host}:${bound.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
