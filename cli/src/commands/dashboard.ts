import { Command, Option } from 'clipanion';
import { AgentgovCommand, EXIT, configOption, jsonOption } from './base.js';

export class DashboardCommand extends AgentgovCommand {
  static override paths = [['dashboard']];
  static override usage = Command.Usage({
    category: 'Governance',
    description: 'Serve a read-only web dashboard of the recorded tool calls',
    details: `
      Serves a web page and a JSON API under /api (GET only) over the recorded calls: an overview of a period
      (calls and risky calls per day, by action, agent and project; the reasons and rules that fired most), the
      sessions with filters, one session's timeline and one call's evidence. Every view is a stable URL.

      The source is \`--db PATH\` (a system.db), else \`--store NAME\` (a configured store sink that can be read,
      such as the PostgreSQL team store), else the one configured store sink that can be read, else
      \`$AGENTGOV_HOME/system.db\` (config \`governance.db\`). It writes nothing anywhere: system.db is opened
      read-only and PostgreSQL through read-only sessions.

      It listens on \`--listen\`, else \`dashboard.listen\` (localhost:7332). A non-loopback address needs
      \`dashboard.token\`: scripts send \`Authorization: Bearer <token>\`, a browser opens /login?token=<token> once.
      Ctrl-C stops it.`,
    examples: [
      ['Serve the local system.db on localhost:7332', '$0 dashboard'],
      ['Another database, on another port', '$0 dashboard --db ./system.db --listen 127.0.0.1:8080'],
      ['The team store configured as the postgres sink', '$0 dashboard --store postgres'],
    ],
  });

  listen = Option.String('--listen', {
    description: 'HOST:PORT to serve on (default: dashboard.listen, localhost:7332)',
  });
  db = Option.String('--db', {
    description: 'A system.db to read (default: the configured store, else $AGENTGOV_HOME/system.db)',
  });
  store = Option.String('--store', {
    description:
      'Name of a configured store sink to read, e.g. postgres (default: the one readable store sink, if any)',
  });
  config = configOption();
  override json = jsonOption(
    'one JSON line per state: {state: "listening", url, source}, then {state: "stopped", signal}',
  );

  async run(): Promise<number> {
    const { AgentgovError, governanceDbPath, openSqliteReader } = await import('@agentgov/core');
    if (this.db && this.store)
      throw new AgentgovError('E_INVALID_ARGUMENT', '--db and --store name two sources; give one');
    const logger = this.logger('WARNING');
    const { startCliHost } = await import('../host.js');
    const { loaded, host } = await startCliHost({ configPath: this.config }, logger);
    const readable = host.registries.sinks.values().filter((sink) => typeof sink.openReader === 'function');
    let reader;
    if (this.db) reader = openSqliteReader(governanceDbPath(loaded, this.db));
    else if (this.store) {
      const sink = readable.find((s) => s.name === this.store);
      if (!sink) {
        const known = readable.map((s) => s.name).join(', ') || '(none configured)';
        throw new AgentgovError(
          'E_INVALID_ARGUMENT',
          `no readable store sink named '${this.store}'; readable store sinks: ${known}`,
        );
      }
      reader = await sink.openReader!();
    } else if (readable.length === 1) reader = await readable[0]!.openReader!();
    else reader = openSqliteReader(governanceDbPath(loaded));
    await reader.facets(); // a store that cannot answer fails now, with its own message, not on the first page load
    const { parseListen, listenScoreApp } = await import('../score-api/listen.js');
    const { createDashboardApp } = await import('../dashboard/app.js');
    const { dashboardAssetsDir } = await import('../dashboard/assets.js');
    const { CLI_VERSION } = await import('../package-info.js');
    const token = loaded.config.dashboard.token;
    const app = createDashboardApp({ reader, assetsDir: dashboardAssetsDir(), token, logger, version: CLI_VERSION });
    const address = parseListen(this.listen ?? loaded.config.dashboard.listen);
    const running = await listenScoreApp(app, address, token, {
      service: 'the dashboard',
      tokenKey: 'dashboard.token',
    });
    this.context.stderr.write(`dashboard of ${reader.source} on ${running.url}/ (read-only; Ctrl-C stops it)\n`);
    if (this.json) this.writeLine({ state: 'listening', url: `${running.url}/`, source: reader.source });
    const signal = await new Promise<string>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    });
    await running.close();
    await reader.close();
    if (this.json) this.writeLine({ state: 'stopped', signal });
    return EXIT.OK;
  }
}
