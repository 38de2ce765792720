import { readFileSync } from 'node:fs';
import type { AgentgovConfig, Logger, PluginHost } from '@agentgov/core';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { resolveRepoPath } from '../paths/repo-path.js';
import { listedTools } from '../tools/index.js';
import type { AnyToolDefinition, SessionState, ToolContext } from '../tools/tool.js';
import type { IndexProgress, ToolIndex } from './index-status.js';
import { registerTools } from './tool-dispatch.js';

const SERVER_VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const INSTRUCTIONS =
  'agentgov: code intelligence over one repository. Start with `recon_scout` to orient, `describe` documents any tool or error code. ' +
  'While the first index build runs, index-backed tools answer E_INDEX_NOT_READY with progress; indexing progress is also sent as logging notifications (logger "agentgov.index").';

export interface ToolServerOptions {
  repoRoot: string;
  index: ToolIndex;
  host: PluginHost;
  config: AgentgovConfig;
  logger: Logger;
  devMode: boolean;
  /** Defaults to every registered tool, filtered by dev mode. */
  tools?: readonly AnyToolDefinition[];
  /** Minimum milliseconds between two indexing-progress notifications to a session (default 250). */
  progressIntervalMs?: number;
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
  }

  /** A new MCP session: a fresh McpServer with every listed tool, not yet connected. */
  createSession(): McpServer {
    const server = new McpServer({ name: 'agentgov', version: SERVER_VERSION }, { capabilities: { logging: {} }, instructions: INSTRUCTIONS });
    const session: OpenSession = { server, state: { readOnly: false, didRecon: false }, lastProgressAt: 0 };
    registerTools(server, this.tools, (call) => this.#context(session.state, call.signal, call.sendProgress, call.tool));
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

  /** Indexing progress as MCP logging notifications to every connected session, throttled; the last one (done = total) always goes out. */
  #broadcastProgress(progress: IndexProgress): void {
    const now = Date.now();
    const final = progress.total > 0 && progress.done >= progress.total;
    for (const session of this.#sessions) {
      if (!session.server.isConnected()) continue;
      if (!final && now - session.lastProgressAt < (this.options.progressIntervalMs ?? 250)) continue;
      session.lastProgressAt = now;
      session.server.server
        .sendLoggingMessage({ level: 'info', logger: 'agentgov.index', data: { event: 'index_progress', done: progress.done, total: progress.total } })
        .catch((error: unknown) => this.options.logger.debug('progress notification not delivered', { error: String(error) }));
    }
  }
}
