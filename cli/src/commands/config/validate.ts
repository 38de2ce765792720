import { readFileSync } from 'node:fs';
import { formatIssue, resolveConfigFile, validateConfigText } from '@agentgov/core';
import { Command, Option } from 'clipanion';
import { AgentgovCommand, EXIT, jsonOption } from '../base.js';

export class ConfigValidateCommand extends AgentgovCommand {
  static override paths = [['config', 'validate']];
  static override usage = Command.Usage({
    category: 'Configuration',
    description: 'Check a config file against the schema without running anything',
    details:
      'Parses the YAML and checks it against the configuration schema (docs/config.schema.json). ' +
      'Every problem is listed with its file:line:column and key path. Unknown ' +
      'top-level keys are warnings that name the nearest valid key. Exit code 0 ' +
      'when valid (warnings allowed), 1 when any error is found, 3 when the file ' +
      'cannot be read.',
    examples: [
      ['Validate the resolved config', '$0 config validate'],
      ['Validate a file', '$0 config validate --config ./agentgov.yaml'],
    ],
  });

  config = Option.String('--config', { description: 'Config file to check (default: resolved like `config show`)' });
  override json = jsonOption('one JSON object {file, valid, errors, warnings, issues}');

  async run(): Promise<number> {
    const { file, source } = resolveConfigFile({ configPath: this.config });
    if (!file) {
      if (this.json) return this.answer({ file: null, valid: true, errors: 0, warnings: 0, issues: [] }, EXIT.OK);
      this.context.stdout.write(
        'no config file found (checked $AGENTGOV_CONFIG, ./agentgov.yaml, $AGENTGOV_HOME/config.yaml); ' +
          'built-in defaults are valid\n',
      );
      return EXIT.OK;
    }
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      // A config file that cannot be read is a configuration error (3), as in `config show` and every command.
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'does not exist'
          : `cannot be read (${(error as Error).message})`;
      const via = source === 'flag' ? '--config' : source === 'env' ? 'AGENTGOV_CONFIG' : source;
      return this.fail('E_CONFIG_INVALID', `config file ${file} (from ${via}) ${reason}`);
    }
    const { issues } = validateConfigText(text, file);
    const errors = issues.filter((i) => i.severity === 'error').length;
    const warnings = issues.length - errors;
    if (this.json)
      return this.answer({ file, valid: errors === 0, errors, warnings, issues }, errors ? EXIT.FAILED : EXIT.OK);
    for (const issue of issues) this.context.stderr.write(`${formatIssue(issue)}\n`);
    if (errors) {
      this.context.stderr.write(`${file}: ${errors} error(s), ${warnings} warning(s)\n`);
      return EXIT.FAILED;
    }
    this.context.stdout.write(`${file}: valid${warnings ? ` (${warnings} warning(s))` : ''}\n`);
    return EXIT.OK;
  }

  private answer(body: object, code: number): number {
    this.writeJson(body);
    return code;
  }
}
