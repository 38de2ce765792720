import { EventEmitter } from 'node:events';
import { createLogger, createPluginHost, loadConfig, silentLogger, type AgentgovConfig, type PluginHost } from '@agentgov/core';
import { makeTempDir } from '@agentgov/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { IndexProgress, ToolIndex } from '../../src/mcp/index-status.js';
import { ToolServer, type ToolServerOptions } from '../../src/mcp/tool-server.js';

/**
 * An index whose readiness the test drives: the server infrastructure's view of an index
 * (readiness and progress events), for testing gating without building a real index.
 */
export class ControlledIndex extends EventEmitter implements ToolIndex {
  #progress: IndexProgress = { done: 0, total: 0 };
  #ready = false;
  isReady(): boolean {
    return this.#ready;
  }
  progress(): IndexProgress {
    return { ...this.#progress };
  }
  advance(done: number, total: number): void {
    this.#progress = { done, total };
    if (done >= total) this.#ready = true;
    this.emit('progress', this.progress());
  }
}

export async function emptyHost(): Promise<{ host: PluginHost; config: AgentgovConfig }> {
  const loaded = loadConfig({ cwd: makeTempDir('agentgov-cwd-') });
  const host = await createPluginHost({ loaded, bundled: [], resolveFrom: [], host: 'server', logger: silentLogger });
  return { host, config: loaded.config };
}

/** A real MCP client connected in-process to a real ToolServer session. */
export async function connectClient(options: Partial<ToolServerOptions> & { repoRoot: string; index: ToolIndex }): Promise<{ client: Client; toolServer: ToolServer; close(): Promise<void> }> {
  const { host, config } = await emptyHost();
  const toolServer = new ToolServer({ host, config, logger: createLogger({ stream: null }), devMode: false, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await toolServer.createSession().connect(serverSide);
  const client = new Client({ name: 'test', version: '0.0.0' });
  await client.connect(clientSide);
  return { client, toolServer, close: async () => { await client.close(); await toolServer.close(); } };
}
