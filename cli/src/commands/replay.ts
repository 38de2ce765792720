import { Command, Option } from 'clipanion';
import { AgentgovCommand, EXIT, configOption, jsonOption, logLevelOption, toLogLevel } from './base.js';

export class ReplayCommand extends AgentgovCommand {
  static override paths = [['replay']];
  static override usage = Command.Usage({
    category: 'Governance',
    description: 'Re-run the governance pipeline over captured session files',
    details:
      'Reads PATH (one capture file, or every `.jsonl`/`.json` file under a directory) ' +
      'with the named framework adapter, assesses every tool call, records events ' +
      'and assessments in system.db (idempotent: a second replay adds no duplicates) ' +
      'and emits every record to the sinks — the console (a line per notable event) ' +
      'unless `--output` writes JSONL records to FILE instead. Lines the adapter ' +
      'cannot read are skipped and counted in the summary; an incomplete last line ' +
      'is left for later. Shows a progress bar on a TTY when there are several ' +
      'files.',
    examples: [
      ['Replay every agentx-code transcript', '$0 replay ~/.agentx/projects --adapter agentx-code'],
      [
        'Write the records of one session as JSONL',
        '$0 replay session.jsonl --adapter agentx-code --output records.jsonl',
      ],
    ],
  });

  capturePath = Option.String({ name: 'PATH', required: false });
  adapter = Option.String('--adapter', {
    description: 'Framework adapter that reads the captures, e.g. agentx-code (default: none, required)',
  });
  output = Option.String('--output', {
    description:
      'Write one JSON record per event to this file instead of the console; {session_id} ' +
      'splits it per session (default: console)',
  });
  config = configOption();
  override json = jsonOption('the summary as one JSON object (no console sink)');
  logLevel = logLevelOption();

  protected override logLevelOption() {
    return toLogLevel(this.logLevel);
  }

  async run(): Promise<number> {
    const logger = this.logger();
    const { replay } = await import('../pipeline/replay.js');
    const path = this.required(this.capturePath, 'argument PATH', 'a capture file or a directory of captures');
    const adapter = this.required(
      this.adapter,
      'option --adapter NAME',
      'the framework adapter that reads the captures, e.g. agentx-code',
    );
    const summary = await replay({
      path,
      adapter,
      output: this.output,
      configPath: this.config,
      logger,
      stdout: this.context.stdout,
      stderr: this.context.stderr,
      json: this.json,
    });
    return summary.sinkFailures > 0 ? EXIT.FAILED : EXIT.OK;
  }
}
