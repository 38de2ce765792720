import { AgentgovError } from '@agentgov/core';
import { Command, Option } from 'clipanion';
import { startCliHost } from '../host.js';
import { AgentgovCommand, EXIT, configOption, logLevelOption, toLogLevel } from './base.js';

export class ServeCommand extends AgentgovCommand {
  static override paths = [['serve']];
  static override usage = Command.Usage({
    category: 'Tool server',
    description: 'Run the MCP tool server over one repository',
    details:
      'Indexes the repository (in the background: until the first build finishes, ' +
      'index-backed tools wait for it up to server.index.wait_ms, default 10 s, ' +
      'sending progress notifications, then answer E_INDEX_NOT_READY with progress; ' +
      'with --wait-for-index they wait until it is ready, or up to SECONDS) and ' +
      'serves the agentgov tools over MCP: on stdio by default, or over Streamable ' +
      'HTTP at http://HOST:PORT/mcp with --http (loopback addresses only). Logs ' +
      'go to stderr and to $AGENTGOV_HOME/logs/serve-YYYY-MM-DD.log; stdout carries ' +
      'only MCP messages. See docs/tools.md.',
    examples: [
      ['Serve the current repository on stdio (what an MCP client launches)', '$0 serve'],
      ['Serve another repository with the dev-only tools', '$0 serve --repo ../project --dev-mode'],
      ['Serve over Streamable HTTP on loopback', '$0 serve --http 127.0.0.1:7332'],
      [
        'Answer tool calls only once the first index is built (waiting up to 5 minutes)',
        '$0 serve --wait-for-index=300',
      ],
    ],
  });

  repo = Option.String('--repo', {
    description: 'Repository root to serve (default: server.repo from the config, else the current directory)',
  });
  devMode = Option.Boolean('--dev-mode', false, {
    description: 'Also list the dev-only tools, e.g. recon_raw_signals (default: false)',
  });
  http = Option.String('--http', {
    description: 'Serve Streamable HTTP on this loopback HOST:PORT instead of stdio (default: stdio)',
  });
  httpMaxSessions = Option.String('--http-max-sessions', {
    description: 'Sessions served at once over HTTP; past it the least recently used idle one is closed (default: 64)',
  });
  waitForIndex = Option.String('--wait-for-index', {
    tolerateBoolean: true,
    description:
      'Index-backed tool calls wait for the first index build (up to SECONDS when ' +
      'given) instead of answering E_INDEX_NOT_READY after server.index.wait_ms; ' +
      'the MCP handshake and tools/list answer at once (default: off)',
  });
  config = configOption();
  logLevel = logLevelOption();

  protected override logLevelOption() {
    return toLogLevel(this.logLevel);
  }

  async run(): Promise<number> {
    const level = toLogLevel(this.logLevel);
    const maxSessions = this.httpMaxSessions === undefined ? undefined : Number(this.httpMaxSessions);
    if (maxSessions !== undefined && !(Number.isInteger(maxSessions) && maxSessions >= 1)) {
      this.report(
        new AgentgovError(
          'E_INVALID_ARGUMENT',
          `--http-max-sessions must be a whole number ≥ 1 (got '${this.httpMaxSessions}')`,
          { value: this.httpMaxSessions },
        ),
      );
      return EXIT.USAGE;
    }
    const indexWaitMs = waitMsOf(this.waitForIndex);
    if (Number.isNaN(indexWaitMs)) {
      this.report(
        new AgentgovError(
          'E_INVALID_ARGUMENT',
          `--wait-for-index takes a number of seconds ≥ 0, or nothing to wait until ` +
            `the index is ready (got '${String(this.waitForIndex)}')`,
          { value: this.waitForIndex },
        ),
      );
      return EXIT.USAGE;
    }
    const server = await import('@agentgov/server');
    const logger = server.createServeLogger(level, this.context.stderr);
    const { loaded, host } = await startCliHost({ configPath: this.config }, logger);
    try {
      await server.runServe({
        repo: this.repo,
        devMode: this.devMode || loaded.config.server.dev_mode,
        http: this.http,
        httpMaxSessions: maxSessions,
        indexWaitMs,
        host,
        config: loaded.config,
        logger,
      });
    } catch (error) {
      if ((error as { code?: string }).code === 'E_ADDRESS_UNAVAILABLE') {
        this.report(error);
        return EXIT.UNAVAILABLE;
      }
      throw error;
    }
    return EXIT.OK;
  }
}

/** `--wait-for-index` alone waits until the index is ready; `=SECONDS` (≥ 0) bounds it; NaN for anything else. */
function waitMsOf(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (value === true) return Number.POSITIVE_INFINITY;
  const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return seconds >= 0 ? seconds * 1000 : Number.NaN;
}
