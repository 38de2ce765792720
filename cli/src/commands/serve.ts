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
      'Indexes the repository (in the background; index-backed tools answer E_INDEX_NOT_READY with progress until the first build finishes) and serves the agentgov tools over MCP: on stdio by default, or over Streamable HTTP at http://HOST:PORT/mcp with --http (loopback addresses only). Logs go to stderr and to $AGENTGOV_HOME/logs/serve-YYYY-MM-DD.log; stdout carries only MCP messages. See docs/tools.md.',
    examples: [
      ['Serve the current repository on stdio (what an MCP client launches)', '$0 serve'],
      ['Serve another repository with the dev-only tools', '$0 serve --repo ../project --dev-mode'],
      ['Serve over Streamable HTTP on loopback', '$0 serve --http 127.0.0.1:7332'],
    ],
  });

  repo = Option.String('--repo', { description: 'Repository root to serve (default: server.repo from the config, else the current directory)' });
  devMode = Option.Boolean('--dev-mode', false, { description: 'Also list the dev-only tools, e.g. recon_raw_signals (default: false)' });
  http = Option.String('--http', { description: 'Serve Streamable HTTP on this loopback HOST:PORT instead of stdio (default: stdio)' });
  httpMaxSessions = Option.String('--http-max-sessions', { description: 'Sessions served at once over HTTP; past it the least recently used idle one is closed (default: 64)' });
  config = configOption();
  logLevel = logLevelOption();

  protected override logLevelOption() {
    return toLogLevel(this.logLevel);
  }

  async run(): Promise<number> {
    const level = toLogLevel(this.logLevel);
    const maxSessions = this.httpMaxSessions === undefined ? undefined : Number(this.httpMaxSessions);
    if (maxSessions !== undefined && !(Number.isInteger(maxSessions) && maxSessions >= 1)) {
      this.report(new AgentgovError('E_INVALID_ARGUMENT', `--http-max-sessions must be a whole number ≥ 1 (got '${this.httpMaxSessions}')`, { value: this.httpMaxSessions }));
      return EXIT.USAGE;
    }
    const server = await import('@agentgov/server');
    const logger = server.createServeLogger(level, this.context.stderr);
    const { loaded, host } = await startCliHost({ configPath: this.config }, logger);
    try {
      await server.runServe({ repo: this.repo, devMode: this.devMode || loaded.config.server.dev_mode, http: this.http, httpMaxSessions: maxSessions, host, config: loaded.config, logger });
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
