/**
 * The gate IPC server run by `watch`: a Unix domain socket under `$AGENTGOV_HOME` (0600, in a
 * 0700 directory), one framed request and one framed reply per connection, any number of
 * concurrent clients. A request must carry the per-run token; a connection that does not deliver
 * a complete frame within `requestTimeoutMs` is closed, and a frame over the size limit is refused
 * before it is buffered. The decision itself is injected (`decide`), so the server is only
 * transport: the pipeline decides and records.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, chmodSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { AgentgovError, PRIVATE_FILE_MODE, type Logger } from '@agentgov/core';
import { isInputProblem, toGateInput, type GateInput } from './input.js';
import {
  encodeFrame,
  FrameDecoder,
  MAX_FRAME_BYTES,
  PROTOCOL_VERSION,
  type GateDecision,
  type GateResponse,
  type GateServerErrorCode,
} from './protocol.js';

/** sockaddr_un.sun_path is 108 bytes on Linux, 104 on macOS; stay under both. */
const MAX_SOCKET_PATH_BYTES = 103;

/** A fresh per-run token: 256 bits, hex. (Here, not in endpoint.ts: the client must not load node:crypto.) */
export function newGateToken(): string {
  return randomBytes(32).toString('hex');
}

export interface GateServerOptions {
  socketPath: string;
  token: string;
  /** Decides (and records); `context` says whether the client is still there to get the answer. */
  decide(input: GateInput, context: DecisionContext): Promise<GateDecision>;
  logger: Logger;
  /** Time a client has to deliver its request frame (default 5000 ms). */
  requestTimeoutMs?: number;
  maxFrameBytes?: number;
}

export interface DecisionContext {
  /** When the request frame arrived (ms since the epoch). */
  receivedAt: number;
  /** True once the client closed the connection (it gave up waiting: its timeout). */
  clientGone(): boolean;
}

export interface GateServerStats {
  decided: number;
  refused: number;
}

export class GateServer {
  readonly stats: GateServerStats = { decided: 0, refused: 0 };
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  readonly #inFlight = new Set<Promise<unknown>>();
  #closing = false;

  constructor(private readonly options: GateServerOptions) {}

  get socketPath(): string {
    return this.options.socketPath;
  }

  async listen(): Promise<void> {
    const path = this.options.socketPath;
    if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
      throw new AgentgovError(
        'E_INVALID_ARGUMENT',
        `gate socket path ${path} is longer than ` +
          `${MAX_SOCKET_PATH_BYTES} bytes; set AGENTGOV_HOME to a shorter directory`,
        { path },
      );
    }
    await this.#removeStaleSocket(path);
    const server = createServer({ allowHalfOpen: true }, (socket) => this.#accept(socket));
    // umask makes the socket private from the moment it exists; chmod below makes it explicit.
    const previousUmask = process.umask(0o177);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(path, () => {
          server.off('error', reject);
          resolve();
        });
      });
    } finally {
      process.umask(previousUmask);
    }
    chmodSync(path, PRIVATE_FILE_MODE);
    server.on('error', (error) => this.options.logger.error(`gate server error: ${error.message}`));
    this.#server = server;
  }

  /** Stops accepting, lets in-flight decisions finish (bounded), closes clients, removes the socket. */
  async close(graceMs = 2000): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    const server = this.#server;
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    await Promise.race([Promise.allSettled([...this.#inFlight]), new Promise((r) => setTimeout(r, graceMs).unref())]);
    for (const socket of this.#sockets) socket.destroy();
    await closed;
    rmSync(this.options.socketPath, { force: true });
  }

  /** A socket file left by a crashed run is removed; one that still answers belongs to a live `watch`. */
  async #removeStaleSocket(path: string): Promise<void> {
    if (!existsSync(path)) return;
    const live = await new Promise<boolean>((resolve) => {
      const probe = connect(path);
      probe.once('connect', () => {
        probe.destroy();
        resolve(true);
      });
      probe.once('error', () => resolve(false));
    });
    if (live)
      throw new AgentgovError('E_GATE_IN_USE', `another agentgov watch is serving the gate socket ${path}`, { path });
    this.options.logger.info(`removing stale gate socket ${path}`);
    rmSync(path, { force: true });
  }

  #accept(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
    socket.on('error', (error) => this.options.logger.debug(`gate client error: ${error.message}`));
    socket.setTimeout(this.options.requestTimeoutMs ?? 5000, () => {
      this.stats.refused += 1;
      socket.destroy();
    });
    const decoder = new FrameDecoder(this.options.maxFrameBytes ?? MAX_FRAME_BYTES);
    let answered = false;
    let gone = false;
    socket.on('close', () => (gone = true));
    // The client never half-closes while it waits: an 'end' means it gave up (its timeout).
    socket.on('end', () => (gone = true));
    socket.on('data', (chunk: Buffer) => {
      if (answered) return;
      const frame = decoder.push(chunk);
      if (!frame) return;
      answered = true;
      socket.setTimeout(0);
      if (frame.kind === 'too_large')
        return this.#refuse(
          socket,
          'frame_too_large',
          `request frame of ${frame.bytes} bytes exceeds the ${MAX_FRAME_BYTES}-byte limit`,
        );
      if (frame.kind === 'malformed')
        return this.#refuse(socket, 'bad_request', `request is not valid JSON: ${frame.message}`);
      const task = this.#handle(socket, frame.value, {
        receivedAt: Date.now(),
        clientGone: () => gone || socket.destroyed,
      });
      this.#inFlight.add(task);
      void task.finally(() => this.#inFlight.delete(task));
    });
  }

  async #handle(socket: Socket, value: unknown, context: DecisionContext): Promise<void> {
    const request = value as { v?: unknown; token?: unknown; input?: unknown } | null;
    if (typeof request !== 'object' || request === null || request.v !== PROTOCOL_VERSION)
      return this.#refuse(socket, 'bad_request', `expected a request of protocol version ${PROTOCOL_VERSION}`);
    if (!this.#tokenMatches(request.token))
      return this.#refuse(socket, 'bad_token', 'the request token does not match this run of watch');
    if (this.#closing) return this.#refuse(socket, 'shutting_down', 'watch is shutting down');
    const input = toGateInput(request.input);
    if (isInputProblem(input)) return this.#refuse(socket, 'bad_request', input.message);
    try {
      const decision = await this.options.decide(input, context);
      this.stats.decided += 1;
      this.#reply(socket, { ok: true, ...decision });
    } catch (error) {
      this.options.logger.error(`gate decision failed: ${(error as Error).message}`);
      this.#refuse(socket, 'decision_failed', (error as Error).message);
    }
  }

  #tokenMatches(token: unknown): boolean {
    if (typeof token !== 'string') return false;
    const given = Buffer.from(token);
    const expected = Buffer.from(this.options.token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  #refuse(socket: Socket, code: GateServerErrorCode, message: string): void {
    this.stats.refused += 1;
    this.#reply(socket, { ok: false, error: { code, message } });
  }

  #reply(socket: Socket, response: GateResponse): void {
    if (!socket.destroyed) socket.end(encodeFrame(response));
  }
}
