import { readFileSync } from 'node:fs';
import type { AgentgovConfig, Logger, PluginHost } from '@agentgov/core';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { resolveRepoPath } from '../paths/repo-path.js';
import { listedTools } from '../tools/index.js';
import type { AnyToolDefinition, SessionState, ToolContext } from '../tools/tool.js';
import type { RepositoryIndex } from '../index/repository-index.js';
import type { IndexProgress } from '../index/types.js';
import { registerTools } from './tool-dispatch.js';

const SERVER_VERSION = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const INSTRUCTIONS =
  'agentgov: code intelligence over one repository. Start with `recon_scout` ' +
  'to orient, `describe` documents any tool or error code. ' +
  ('While the first index build runs, index-backed tools wait for it a bounded ' +
    'time (progress notifications when the call carries a progressToken), then ' +
    'answer E_INDEX_NOT_READY with progress; indexing progress is also sent as ' +
    'logging notifications (logger "agentgov.index").');

export interface ToolServerOptions {
  repoRoot: string;
  index: RepositoryIndex;
  host: PluginHost;
  config: AgentgovConfig;
  logger: Logger;
  devMode: boolean;
  /** Defaults to every registered tool, filtered by dev mode. */
  tools?: readonly AnyToolDefinition[];
  /** Minimum milliseconds between two indexing-progress notifications to a session or a call (default 250). */
  progressIntervalMs?: number;
  /**
   * How long an index-backed call waits for the first index build before answering
   * E_INDEX_NOT_READY (Infinity: until it is ready); default `server.index.wait_ms`.
   */
  indexWaitMs?: number;
}

interface OpenSession {
  server: McpServer;
  state: SessionState;
  lastProgressAt: number;
}

/**
 * The tool server shared by every MCP session: one repository, one index, one plugin host. Each
 * session (the stdio connection, or one Streamable HTTP session) gets its own McpServer and its own
 * SessionState (`readOnly`, `didRecon`).
 */
export class ToolServer {
  readonly tools: AnyToolDefinition[];
  readonly #sessions = new Set<OpenSession>();
  readonly #onProgress = (progress: IndexProgress) => this.#broadcastProgress(progress);

  constructor(readonly options: ToolServerOptions) {
    this.tools = listedTools(options.devMode, options.tools);
    options.index.on('progress', this.#onProgress);
    options.index.ready.then(
      () => {
        this.#broadcastProgress({ ...options.index.progress(), phase: 'ready' }, true);
        setImmediate(() => this.#warm());
      },
      (error: Error) => (this.#indexFailure = error),
    );
  }

  /** Why the first index build failed, if it did (index-backed tools then answer E_INTERNAL with it). */
  get indexFailure(): Error | undefined {
    return this.#indexFailure;
  }

  #indexFailure: Error | undefined;

  /** A new MCP session: a fresh McpServer with every listed tool, not yet connected. */
  createSession(): McpServer {
    const server = new McpServer(
      { name: 'agentgov', version: SERVER_VERSION },
      { capabilities: { logging: {} }, instructions: INSTRUCTIONS },
    );
    const session: OpenSession = { server, state: { readOnly: false, didRecon: false }, lastProgressAt: 0 };
    registerTools(
      server,
      this.tools,
      (call) => this.#context(session.state, call.signal, call.sendProgress, call.tool),
      {
        failure: () => this.#indexFailure,
        waitMs: this.options.indexWaitMs ?? this.options.config.server.index.wait_ms ?? 0,
        progressIntervalMs: this.options.progressIntervalMs ?? 250,
      },
    );
    this.#sessions.add(session);
    server.server.onclose = () => this.#sessions.delete(session);
    return server;
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  async close(): Promise<void> {
    this.options.index.off?.('progress', this.#onProgress);
    await Promise.allSettled([...this.#sessions].map((s) => s.server.close()));
    this.#sessions.clear();
  }

  #context(session: SessionState, signal: AbortSignal, progress: ToolContext['progress'], tool: string): ToolContext {
    const { repoRoot, index, host, config, logger, devMode } = this.options;
    return {
      repoRoot,
      index,
      host,
      session,
      config,
      logger: logger.child(tool),
      progress,
      devMode,
      tools: this.tools,
      resolveRepoPath: (path) => resolveRepoPath(repoRoot, path),
      signal,
    };
  }

  /** Lets tools build their caches once the first build is in (a failure only costs the first call its speed). */
  #warm(): void {
    for (const tool of this.tools) {
      if (!tool.warm) continue;
      const started = Date.now();
      try {
        tool.warm(this.options.index);
        this.options.logger.debug(`warmed ${tool.name}`, { ms: Date.now() - started });
      } catch (error) {
        this.options.logger.warn(`warming ${tool.name} failed`, { error: (error as Error).message });
      }
    }
  }

  /**
   * Indexing progress as MCP logging notifications to every connected session, throttled; the last one (done = total)
   * always goes out.
   */
  #broadcastProgress(progress: IndexProgress, final = false): void {
    // re-indexing after the first build is quick and silent: only the first build is announced
    if (!final && this.options.index.isReady()) return;
    const now = Date.now();
    for (const session of this.#sessions) {
      if (!session.server.isConnected()) continue;
      if (!final && now - session.lastProgressAt < (this.options.progressIntervalMs ?? 250)) continue;
      session.lastProgressAt = now;
      session.server.server
        .sendLoggingMessage({
          level: 'info',
          logger: 'agentgov.index',
          data: {
            event: final ? 'index_ready' : 'index_progress',
            done: progress.done,
            total: progress.total,
            phase: progress.phase,
          },
        })
        .catch((error: unknown) =>
          this.options.logger.debug('progress notification not delivered', { error: String(error) }),
        );
    }
  }
}
