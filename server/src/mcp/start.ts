import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { AgentgovError, type AgentgovConfig, type Logger, type PluginHost } from '@agentgov/core';
import { serveHttp, parseHttpAddress } from './http.js';
import { openRepositoryIndex, type RepositoryIndex } from '../index/repository-index.js';
import { applyHeapGrowth, setMemoryTarget } from '../memory.js';
import { serveStdio } from './stdio.js';
import { ToolServer } from './tool-server.js';
import { runningScheduler, schedulerFor } from '../test-impact/scheduler-for.js';

export interface ServeOptions {
  /** Repository root; defaults to `config.server.repo`, then the current directory. */
  repo?: string | undefined;
  devMode: boolean;
  /** `HOST:PORT` for Streamable HTTP on loopback; stdio when absent. */
  http?: string | undefined;
  /** Sessions the HTTP transport serves at once (default 64); past it the least recently used idle one is closed. */
  httpMaxSessions?: number | undefined;
  host: PluginHost;
  config: AgentgovConfig;
  logger: Logger;
  /**
   * `--wait-for-index`: index-backed calls wait this long for the first build (Infinity: until it is ready); default
   * `server.index.wait_ms`.
   */
  indexWaitMs?: number | undefined;
  /** Called once the server listens (HTTP: with its URL). */
  onListening?: (where: { transport: 'stdio' } | { transport: 'http'; url: string }) => void;
  /** Resolves to stop the server (default: SIGINT/SIGTERM, or stdin closing for stdio). */
  stop?: Promise<void>;
}

export function resolveRepoRoot(repo: string): string {
  const root = resolve(repo);
  let stats;
  try {
    stats = statSync(root);
  } catch {
    const remediation =
      `${root} does not exist: pass --repo the root directory of an existing repository ` +
      `(a relative path counts from ${process.cwd()}), or run agentgov serve inside ` +
      `the repository; server.repo in the config sets a default.`;
    throw new AgentgovError('E_NOT_FOUND', `repository ${root} does not exist`, { repo: root }, { remediation });
  }
  if (!stats.isDirectory()) {
    throw new AgentgovError(
      'E_INVALID_ARGUMENT',
      `--repo must be a directory: ${root}`,
      { repo: root },
      { remediation: `${root} is a file: pass --repo the repository's root directory.` },
    );
  }
  return realpathSync(root);
}

/** Opens the index with the language packs of the loaded plugins; the first build runs in the background. */
async function openIndex(root: string, options: ServeOptions): Promise<RepositoryIndex> {
  const settings = options.config.server.index;
  const languages = options.host.registries.languages.values();
  options.logger.info(`indexing with ${languages.length} language packs`, { languages: languages.map((l) => l.name) });
  return openRepositoryIndex({
    root,
    languages,
    logger: options.logger.child('index'),
    maxFileBytes: settings.max_file_bytes,
    exclude: settings.exclude,
    watch: settings.watch,
    debounceMs: settings.watch_debounce_ms,
    textCacheChars: settings.text_cache_mb * 1024 * 1024,
    knownNamesMax: settings.known_names_max,
    graphKeepMs: settings.graph_keep_seconds * 1000,
  });
}

function signalled(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

/** `agentgov serve`: resolves the repository, opens its index, and serves MCP until stopped. */
export async function runServe(options: ServeOptions): Promise<void> {
  const { config, logger } = options;
  const http = options.http ?? config.server.http ?? undefined;
  const address = http ? parseHttpAddress(http) : undefined;
  const repoRoot = resolveRepoRoot(options.repo ?? config.server.repo ?? process.cwd());
  const heapGrowth = applyHeapGrowth(config.server.heap_growth_percent);
  setMemoryTarget(config.server.memory_target_mb);
  const index = await openIndex(repoRoot, options);
  const toolServer = new ToolServer({
    repoRoot,
    index,
    host: options.host,
    config,
    logger,
    devMode: options.devMode,
    ...(options.indexWaitMs !== undefined ? { indexWaitMs: options.indexWaitMs } : {}),
  });
  if (config.server.test_impact?.scheduler === 'startup') {
    // Configured to run the project's tests from the start (it executes project code; the default waits for a
    // test-impact call).
    schedulerFor({
      index,
      host: options.host,
      logger: logger.child('tests'),
      session: { readOnly: false, didRecon: false },
      repoRoot,
      config,
    });
    logger.info('test scheduler started at start-up (server.test_impact.scheduler: startup)');
  }
  const stop = options.stop ?? signalled();
  logger.info(`serving ${repoRoot}`, {
    tools: toolServer.tools.map((t) => t.name),
    dev_mode: options.devMode,
    transport: address ? 'http' : 'stdio',
    heap_growth: heapGrowth === 'configuration' ? `${config.server.heap_growth_percent}%` : `set by ${heapGrowth}`,
    memory_target: config.server.memory_target_mb > 0 ? `${config.server.memory_target_mb} MB` : 'off',
  });
  try {
    if (address) {
      const endpoint = await serveHttp(toolServer, address.host, address.port, {
        maxSessions: options.httpMaxSessions,
      }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRINUSE' || error.code === 'EACCES')
          throw new AgentgovError('E_ADDRESS_UNAVAILABLE', `cannot listen on ${http}: ${error.code}`, {
            address: http,
            errno: error.code,
          });
        throw error;
      });
      logger.info(`MCP Streamable HTTP on ${endpoint.url}`);
      options.onListening?.({ transport: 'http', url: endpoint.url });
      await stop;
      await endpoint.close();
    } else {
      options.onListening?.({ transport: 'stdio' });
      await Promise.race([serveStdio(toolServer), stop]);
    }
  } finally {
    await toolServer.close();
    // A test process the scheduler started must not outlive the server.
    await runningScheduler(index)?.close();
    await index.close();
    logger.info('server stopped');
  }
}
