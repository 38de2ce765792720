import { Command, Option } from 'clipanion';
import { AgentgovCommand, EXIT, configOption, jsonOption } from './base.js';

export class ScoreCommand extends AgentgovCommand {
  static override paths = [['score']];
  static override usage = Command.Usage({
    category: 'Governance',
    description: 'Run the read-only risk-scoring HTTP API (POST /score, GET /health)',
    details:
      'Serves the Score API without watching any file: `POST /score` with `{tool_name, ' +
      'arguments, session_id}` answers `{risk_assessment: {score, level}, recommendation: ' +
      '{action, reason_code}, evidence, stage: "assessed"}`; `GET /health` answers ' +
      'status, version, uptime and the number of rules loaded. It writes nothing ' +
      'anywhere — no database row, no file. Bad requests get 400/401/404/405/413 ' +
      'with `{error: {code, message}}`, never a 5xx. A non-loopback address is ' +
      'refused unless `score.token` is set; with a token every request needs `Authorization: ' +
      'Bearer <token>`. Stops on SIGINT/SIGTERM.',
    examples: [
      ['Serve on the default address (score.listen, localhost:7331)', '$0 score'],
      ['Serve on another port', '$0 score --listen 127.0.0.1:8080'],
    ],
  });

  listen = Option.String('--listen', {
    description: 'Bind address HOST:PORT (default: score.listen from the config, localhost:7331)',
  });
  config = configOption();
  override json = jsonOption(
    'one JSON line per state: {state: "listening", url, rules_loaded}, then {state: "stopped", signal}',
  );

  async run(): Promise<number> {
    const logger = this.logger();
    const { startCliHost } = await import('../host.js');
    const { loaded, host } = await startCliHost({ configPath: this.config }, logger);
    const { assertBindAllowed, listenScoreApp, parseListen } = await import('../score-api/listen.js');
    const address = parseListen(this.listen ?? loaded.config.score.listen);
    const token = loaded.config.score.token;
    assertBindAllowed(address, token);
    const { createScoreAssessor } = await import('../score-api/assessor.js');
    const { createScoreApp } = await import('../score-api/app.js');
    const { CLI_VERSION } = await import('../package-info.js');
    const assessor = await createScoreAssessor(host, loaded, logger);
    const app = createScoreApp({
      assess: assessor.assess,
      version: CLI_VERSION,
      rulesLoaded: () => assessor.rulesLoaded,
      token,
      logger: logger.child('score'),
    });
    const { untilShutdownSignal } = await import('../watch/signals.js');
    const shutdown = untilShutdownSignal();
    const running = await listenScoreApp(app, address, token);
    logger.info(`Score API listening on ${running.url} (${assessor.rulesLoaded} rules loaded)`);
    if (this.json) this.writeLine({ state: 'listening', url: running.url, rules_loaded: assessor.rulesLoaded });
    const signal = await shutdown;
    logger.info(`${signal}: stopping the Score API`);
    await running.close();
    if (this.json) this.writeLine({ state: 'stopped', signal });
    return EXIT.OK;
  }
}
