import { Command, Option } from 'clipanion';
import { AgentgovCommand, EXIT, configOption, jsonOption } from './base.js';

export class DetectCommand extends AgentgovCommand {
  static override paths = [['detect']];
  static override usage = Command.Usage({
    category: 'Governance',
    description: 'Discover installed AI coding-agent frameworks',
    details:
      'Asks every framework adapter (the `frameworks` hook) whether its framework ' +
      'is installed — e.g. agentx-code when `$AGENTX_HOME` (default `~/.agentx`) ' +
      'has a `projects/` directory, Claude Code when `$CLAUDE_CONFIG_DIR` (default ' +
      '`~/.claude`) has one, Codex when `$CODEX_HOME` (default `~/.codex`) exists; ' +
      'docs/cli.md lists them all — and prints a table, or with `--json-output` ' +
      'a JSON array of `{name, path, adapter, ingestion_mode}` (empty when nothing ' +
      'is found). `--frameworks` restricts the check; an unknown name lists the ' +
      'known ones (exit 2).',
    examples: [
      ['Table of installed frameworks', '$0 detect'],
      ['JSON for scripts', '$0 detect --json-output'],
      ['Check one framework', '$0 detect --frameworks agentx-code'],
    ],
  });

  override json = jsonOption('a JSON array');
  frameworks = Option.String('--frameworks', {
    description: 'Comma-separated frameworks to check (default: all known)',
  });
  config = configOption();

  async run(): Promise<number> {
    const { startCliHost } = await import('../host.js');
    const { detectFrameworks, parseFrameworkList } = await import('../pipeline/detect.js');
    const { host } = await startCliHost({ configPath: this.config }, this.logger('WARNING'));
    const { detected, checked } = await detectFrameworks(host, parseFrameworkList(this.frameworks), process.env);
    if (this.json) {
      this.context.stdout.write(`${JSON.stringify(detected, null, 2)}\n`);
      return EXIT.OK;
    }
    if (detected.length === 0) {
      this.context.stdout.write(`no supported framework detected (checked: ${checked.join(', ') || 'none'})\n`);
      return EXIT.OK;
    }
    const { renderTable } = await import('../table.js');
    this.context.stdout.write(
      renderTable(
        ['NAME', 'PATH', 'ADAPTER', 'INGESTION MODE'],
        detected.map((d) => [d.name, d.path, d.adapter, d.ingestion_mode]),
      ),
    );
    return EXIT.OK;
  }
}
