import { EventEmitter } from 'node:events';
import {
  createLogger,
  createPluginHost,
  loadConfig,
  silentLogger,
  type AgentgovConfig,
  type PluginHost,
} from '@agentgov/core';
import { makeTempDir } from '@agentgov/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { RepositoryIndex } from '../../src/index/repository-index.js';
import type { IndexProgress } from '../../src/index/types.js';
import type { IndexStatus } from '../../src/mcp/index-status.js';
import { ToolServer, type ToolServerOptions } from '../../src/mcp/tool-server.js';

/**
 * An index whose readiness the test drives: the server infrastructure's view of an index
 * (readiness and progress events), for testing gating without building a real index.
 */
export class ControlledIndex extends EventEmitter implements IndexStatus {
  #progress: IndexProgress = { done: 0, total: 0, phase: 'discovering' };
  #ready = false;
  #resolveReady!: () => void;
  readonly ready = new Promise<void>((resolve) => (this.#resolveReady = resolve));
  isReady(): boolean {
    return this.#ready;
  }
  progress(): IndexProgress {
    return { ...this.#progress };
  }
  advance(done: number, total: number): void {
    this.#progress = { done, total, phase: done >= total ? 'ready' : 'parsing' };
    this.emit('progress', this.progress());
    if (done >= total) {
      this.#ready = true;
      this.#resolveReady();
    }
  }
}

export async function emptyHost(): Promise<{ host: PluginHost; config: AgentgovConfig }> {
  const loaded = loadConfig({ cwd: makeTempDir('agentgov-cwd-') });
  const host = await createPluginHost({ loaded, bundled: [], resolveFrom: [], host: 'server', logger: silentLogger });
  return { host, config: loaded.config };
}

/** A real MCP client connected in-process to a real ToolServer session. */
export async function connectClient(
  options: Partial<Omit<ToolServerOptions, 'index'>> & { repoRoot: string; index: IndexStatus },
): Promise<{ client: Client; toolServer: ToolServer; close(): Promise<void> }> {
  const { host, config } = await emptyHost();
  const toolServer = new ToolServer({
    host,
    config,
    logger: createLogger({ stream: null }),
    devMode: false,
    ...options,
    index: options.index as RepositoryIndex,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await toolServer.createSession().connect(serverSide);
  const client = new Client({ name: 'test', version: '0.0.0' });
  await client.connect(clientSide);
  return {
    client,
    toolServer,
    close: async () => {
      await client.close();
      await toolServer.close();
    },
  };
}
