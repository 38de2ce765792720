import { Command, Option } from 'clipanion';
import { AgentgovCommand, EXIT, configOption, logLevelOption, toLogLevel } from './base.js';

export class WatchCommand extends AgentgovCommand {
  static override paths = [['watch']];
  static override usage = Command.Usage({
    category: 'Governance',
    description: 'Ingest agent captures as they grow, answer the gate, serve the Score API',
    details:
      'Detects the installed coding-agent frameworks (or takes `--frameworks`), ' +
      'ingests their capture files through the governance pipeline (assess → record ' +
      'in system.db → emit to sinks) and keeps following them: new files, appended ' +
      'lines, rotation and truncation. Per-file offsets are stored in system.db ' +
      'with the events they cover, so a restart — even after a crash — neither ' +
      'loses nor duplicates an event. It also runs the gate IPC server that `agentgov ' +
      "gate --stdin` (the agent's PreToolUse hook) asks for verdicts, and, unless " +
      '`--no-score` or `score.enabled: false`, the read-only Score API on `score.listen`. ' +
      '`--once` ingests what exists and exits without serving anything. SIGINT/SIGTERM ' +
      'stop it cleanly: offsets stored, socket removed, gate endpoint unregistered.',
    examples: [
      ['Watch every detected framework', '$0 watch'],
      ['Ingest what exists, then exit', '$0 watch --once'],
      ['Only agentx-code, without the Score API', '$0 watch --frameworks agentx-code --no-score'],
    ],
  });

  config = configOption();
  frameworks = Option.String('--frameworks', {
    description: 'Comma-separated frameworks to watch (default: governance.frameworks, else all detected)',
  });
  once = Option.Boolean('--once', false, {
    description: 'Process the existing captures, then exit without watching or serving (default: false)',
  });
  score = Option.Boolean('--score', true, {
    description: 'Start the Score API; --no-score disables it (default: true, unless score.enabled is false)',
  });
  logLevel = logLevelOption();

  protected override logLevelOption() {
    return toLogLevel(this.logLevel);
  }

  async run(): Promise<number> {
    const logger = this.logger();
    const { runWatch } = await import('../watch/run-watch.js');
    return runWatch({
      configPath: this.config,
      frameworks: this.frameworks,
      once: this.once,
      score: this.score,
      logger,
      stdout: this.context.stdout,
    }).then(() => EXIT.OK);
  }
}
