import { Command, Option } from 'clipanion';
import { AgentgovCommand, EXIT } from './base.js';

export class InitCommand extends AgentgovCommand {
  static override paths = [['init']];
  static override usage = Command.Usage({
    category: 'Governance',
    description: "Install agentgov's PreToolUse gate hook into an agent's project settings",
    details:
      "Writes a PreToolUse hook that runs `<absolute path of this agentgov> gate --stdin` into the project's agent settings (for agentx-code: `<project>/.agentx/settings.json`), keeping every other setting. Running it again changes nothing. A settings file that is not valid JSON is left untouched and reported (exit 1). Supported agents are those whose framework plugin provides a hook installer; an unknown name lists them (exit 2).",
    examples: [
      ['Protect the project in the current directory', '$0 init agentx-code'],
      ['Protect another project', '$0 init agentx-code --project ~/src/app'],
    ],
  });

  agent = Option.String({ name: 'AGENT' });
  project = Option.String('--project,-p', '.', { description: 'Project root directory (default: .)' });

  async run(): Promise<number> {
    const logger = this.logger('WARNING');
    const { startCliHost } = await import('../host.js');
    const { host } = await startCliHost({}, logger);
    const installers = host.registries.frameworks.values().filter((f) => f.hookInstaller);
    const framework = installers.find((f) => f.name === this.agent);
    if (!framework?.hookInstaller) {
      const supported = installers.map((f) => f.name).join(', ') || '(none: no loaded framework plugin installs hooks)';
      this.context.stderr.write(`error [E_INVALID_ARGUMENT]: unknown agent '${this.agent}'; supported agents: ${supported}\n`);
      return EXIT.USAGE;
    }
    const { existsSync, statSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    const projectDir = resolve(this.project);
    if (!existsSync(projectDir) || !statSync(projectDir).isDirectory()) {
      this.context.stderr.write(`error [E_NOT_FOUND]: project directory ${projectDir} does not exist\n`);
      return EXIT.UNAVAILABLE;
    }
    const { gateHookCommand } = await import('../gate/hook-command.js');
    const command = gateHookCommand();
    const { changed, settingsFile } = await framework.hookInstaller.install(projectDir, command);
    this.context.stdout.write(
      changed ? `installed the ${framework.name} PreToolUse hook in ${settingsFile}:\n  ${command}\n` : `the ${framework.name} PreToolUse hook is already in ${settingsFile}; nothing changed\n`,
    );
    return EXIT.OK;
  }
}
