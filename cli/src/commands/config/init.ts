import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, userConfigPath } from '@agentgov/core';
import { Command, Option } from 'clipanion';
import { renderDefaultConfig } from '../../config-template.js';
import { AgentgovCommand, EXIT, jsonOption } from '../base.js';

export class ConfigInitCommand extends AgentgovCommand {
  static override paths = [['config', 'init']];
  static override usage = Command.Usage({
    category: 'Configuration',
    description: 'Write the default configuration to $AGENTGOV_HOME/config.yaml',
    details:
      'Writes a commented default configuration (with a YAML language-server modeline ' +
      'pointing at the JSON Schema). Refuses to overwrite an existing file unless ' +
      '`--force` is given.',
    examples: [
      ['Create the default config', '$0 config init'],
      ['Overwrite an existing config', '$0 config init --force'],
    ],
  });

  force = Option.Boolean('--force', false, { description: 'Overwrite an existing config file (default: false)' });
  override json = jsonOption('one JSON object {file, written}');

  async run(): Promise<number> {
    const target = userConfigPath();
    if (existsSync(target) && !this.force) {
      if (this.json) this.writeJson({ file: target, written: false });
      this.context.stderr.write(
        `error: ${target} already exists; not overwriting it.\n  hint: run \`agentgov config init --force\` ` +
          'to replace it, or edit it and check it with `agentgov config validate`.\n',
      );
      return EXIT.FAILED;
    }
    mkdirSync(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    writeFileSync(target, renderDefaultConfig(), { mode: PRIVATE_FILE_MODE });
    if (this.json) this.writeJson({ file: target, written: true });
    else this.context.stdout.write(`wrote ${target}\n`);
    return EXIT.OK;
  }
}
