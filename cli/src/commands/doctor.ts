import { Command, Option } from 'clipanion';
import { AgentgovCommand, EXIT, jsonOption } from './base.js';

export class DoctorCommand extends AgentgovCommand {
  static override paths = [['doctor']];
  static override usage = Command.Usage({
    category: 'Governance',
    description: "Re-check the agentgov gate hooks installed in a project's agent settings",
    details:
      'For every agent whose framework plugin installs hooks, and every settings ' +
      "scope it has, finds the agentgov gate hooks in the project's settings and " +
      'runs each exact command through `/bin/sh -c` on a probe call (`rm -rf /`), ' +
      'as the agent would; then checks what the agent itself needs before it calls ' +
      "the hook (its plugin's activation checks: the hook file where this agent " +
      "version reads it, the agent's trust state for the project and the hook, " +
      'opt-in variables). A hook passes when it exits 0 or 2 with an answer that ' +
      'asks or denies and every activation check is ok; a failed check is reported ' +
      'with its remedy, one that cannot be read as `??`. Exit 0 when every installed ' +
      'hook passes, 1 when one fails or cannot be verified, or none is installed. ' +
      'A hook that names another agentgov than this one is reported (re-run `init` ' +
      'to point it here).',
    examples: [
      ['Check the project in the current directory', '$0 doctor'],
      ['Check another project', '$0 doctor --project ~/src/app'],
    ],
  });

  project = Option.String('--project,-p', '.', { description: 'Project root directory (default: .)' });
  override json = jsonOption(
    'one JSON object {project, ok, hooks: [{agent, scope, settings_file, command, ' +
      'status, hook_check, activation, current}]}',
  );

  async run(): Promise<number> {
    const { startCliHost } = await import('../host.js');
    const { host } = await startCliHost({}, this.logger('WARNING'));
    const { resolve } = await import('node:path');
    const { gateFormatsOf } = await import('../gate/plugin-formats.js');
    const formats = gateFormatsOf(host);
    const { checkHookCommand, gateHookCommand } = await import('../gate/hook-command.js');
    const { checkActivation, activationLines } = await import('./hook-activation.js');
    const projectDir = resolve(this.project);
    let found = 0;
    let failed = 0;
    const hooks: object[] = [];
    for (const framework of host.registries.frameworks.values()) {
      const installer = framework.hookInstaller;
      if (!installer) continue;
      const format = formats.get(installer.format);
      const current = gateHookCommand(installer.format);
      for (const scope of installer.scopes) {
        const { settingsFile, commands } = await installer.installed(projectDir, { scope, env: process.env });
        if (commands.length === 0) continue;
        // What the agent itself needs before it calls the hook: an installed-but-inert hook is never ok.
        const report = await checkActivation(installer, projectDir, scope, process.env);
        for (const command of commands) {
          found += 1;
          const check = format
            ? checkHookCommand(command, format, { cwd: projectDir })
            : { ok: false, message: `no loaded framework plugin brings gate format '${installer.format}'` };
          const label =
            !check.ok || report.state === 'inactive' ? 'FAIL' : report.state === 'unverified' ? '??  ' : 'ok  ';
          if (label !== 'ok  ') failed += 1;
          hooks.push({
            agent: installer.agent,
            scope,
            settings_file: settingsFile,
            command,
            status: { 'ok  ': 'ok', FAIL: 'fail', '??  ': 'unverified' }[label],
            hook_check: { ok: check.ok, message: check.message },
            activation: report,
            current: command === current ? null : current,
          });
          if (this.json) continue;
          this.context.stdout.write(
            `${label} ${installer.agent} (${scope}) ` +
              `${settingsFile}\n  command: ${command}\n  ` +
              `${check.ok ? 'ok  ' : 'FAIL'} hook command: ` +
              `${check.message}\n${activationLines(report)}`,
          );
          if (command !== current)
            this.context.stdout.write(
              `  note: this agentgov would write \`` +
                `${current}\`; run \`agentgov init ${installer.agent} --scope ` +
                `${scope}\` to point the hook here\n`,
            );
        }
      }
    }
    if (this.json) {
      this.writeJson({ project: projectDir, ok: found > 0 && failed === 0, hooks });
      return found > 0 && failed === 0 ? EXIT.OK : EXIT.FAILED;
    }
    if (found === 0) {
      this.context.stdout.write(
        `no agentgov gate hook is installed for ${projectDir}: run \`agentgov init <agent>\`\n`,
      );
      return EXIT.FAILED;
    }
    return failed ? EXIT.FAILED : EXIT.OK;
  }
}
