import { Command, Option } from 'clipanion';
import { AgentgovCommand, EXIT, jsonOption } from './base.js';

export class InitCommand extends AgentgovCommand {
  static override paths = [['init']];
  static override usage = Command.Usage({
    category: 'Governance',
    description: "Install agentgov's PreToolUse gate hook into an agent's settings, and check that it runs",
    details:
      'Writes a PreToolUse hook running `<node> <agentgov bin entry> gate --stdin ' +
      "--format <agent's format>` (absolute paths, quoted for the shell: it runs " +
      "however agentgov was started) into the agent's settings for the project, " +
      'keeping every other setting. Before writing, it runs that exact command ' +
      'through `/bin/sh -c` on a probe call (`rm -rf /`) and installs it only when ' +
      'the hook answers ask or deny (else exit 1, nothing written). `--scope` picks ' +
      'the settings file (agentx-code: `project` = `.agentx/settings.json`, shared; ' +
      '`local` = `.agentx/settings.local.json`, personal — the place for a machine-specific ' +
      'path). Then it checks what the agent itself needs before it calls the hook ' +
      "(the framework plugin's activation checks: the hook file where this agent " +
      "version reads it, the agent's trust state for the project and the hook, " +
      'opt-in variables) and prints `verified` only when all pass; otherwise `NOT ' +
      'ACTIVE YET` with each step the user still has to take (e.g. Codex: trust ' +
      'the folder, then review and trust the hook in /hooks) — `agentgov doctor` ' +
      'fails until they are done. Running it again changes nothing. A settings ' +
      'file that is not valid JSON is left untouched and reported (exit 1). Supported ' +
      'agents are those whose framework plugin provides a hook installer; an unknown ' +
      'name lists them (exit 2). `agentgov doctor` re-checks installed hooks.',
    examples: [
      ['Protect the project in the current directory', '$0 init agentx-code'],
      [
        'Protect another project, in your personal settings file',
        '$0 init agentx-code --project ~/src/app --scope local',
      ],
      ['Gate Codex for every project (~/.codex/hooks.json)', '$0 init codex --scope user'],
      ["Register agentgov's MCP tool server for Claude Code in the project's .mcp.json", '$0 init claude-code --mcp'],
      [
        "Register agentgov's MCP tool server for agentx-code (mcpServers of .agentx/settings.json)",
        '$0 init agentx-code --mcp',
      ],
    ],
  });

  agent = Option.String({ name: 'AGENT' });
  project = Option.String('--project,-p', '.', { description: 'Project root directory (default: .)' });
  mcp = Option.Boolean('--mcp', false, {
    description:
      "Register `agentgov serve` in the agent's MCP server configuration instead " +
      'of installing the gate hook (default: false)',
  });
  scope = Option.String('--scope', {
    description:
      'Settings scope to write (agentx-code: project or local, with --mcp also ' +
      'user; claude-code: local, project or user; codex, gemini-cli, cursor, copilot-cli: ' +
      "project or user) (default: the agent's first)",
  });

  override json = jsonOption(
    'one JSON object {agent, scope, settings_file, changed, command, hook_check, ' +
      'activation: {state, checks}, mcp_hint}',
  );

  async run(): Promise<number> {
    const logger = this.logger('WARNING');
    const { startCliHost } = await import('../host.js');
    const { host } = await startCliHost({}, logger);
    if (this.mcp) {
      const { registerMcpServer } = await import('./init-mcp.js');
      return registerMcpServer(host, { agent: this.agent, project: this.project, scope: this.scope }, this);
    }
    const installers = host.registries.frameworks.values().filter((f) => f.hookInstaller);
    const installer = installers.find((f) => f.name === this.agent)?.hookInstaller;
    if (!installer) {
      const supported = installers.map((f) => f.name).join(', ') || '(none: no loaded framework plugin installs hooks)';
      return this.fail('E_INVALID_ARGUMENT', `unknown agent '${this.agent}'; supported agents: ${supported}`);
    }
    const scope = this.scope ?? installer.scopes[0];
    if (scope === undefined || !installer.scopes.includes(scope)) {
      return this.fail(
        'E_INVALID_ARGUMENT',
        `--scope must be one of ${installer.scopes.join(', ')} for ${installer.agent} (got ${this.scope})`,
      );
    }
    const { existsSync, statSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    const projectDir = resolve(this.project);
    if (!existsSync(projectDir) || !statSync(projectDir).isDirectory()) {
      return this.fail('E_NOT_FOUND', `project directory ${projectDir} does not exist`);
    }
    const { gateFormatsOf } = await import('../gate/plugin-formats.js');
    const format = gateFormatsOf(host).get(installer.format);
    if (!format) {
      return this.fail(
        'E_PLUGIN_LOAD',
        `the ${installer.agent} hook installer names gate format '${installer.format}', ` +
          'which no loaded framework plugin brings',
      );
    }
    const { checkHookCommand, gateHookCommand } = await import('../gate/hook-command.js');
    const command = gateHookCommand(installer.format);
    const check = checkHookCommand(command, format, { cwd: projectDir });
    if (!check.ok) {
      return this.fail('E_HOOK_BROKEN', `${check.message}\n  command: ${command}\n  nothing was written`, EXIT.FAILED);
    }
    const { changed, settingsFile } = await installer.install(projectDir, command, { scope, env: process.env });
    const { checkActivation, activationLines, remainingSteps } = await import('./hook-activation.js');
    const report = await checkActivation(installer, projectDir, scope, process.env);
    const framework = host.registries.frameworks.values().find((f) => f.name === this.agent);
    const mcpHint = framework?.mcpRegistrar
      ? `agentgov init ${this.agent} --mcp${this.project === '.' ? '' : ` --project ${this.project}`}`
      : null;
    if (this.json) {
      this.writeJson({
        agent: installer.agent,
        scope,
        settings_file: settingsFile,
        changed,
        command,
        hook_check: check.message,
        activation: report,
        mcp_hint: mcpHint,
      });
      return EXIT.OK;
    }
    this.context.stdout.write(
      changed
        ? `installed the ${installer.agent} PreToolUse hook in ${settingsFile}:\n  ${command}\n`
        : `the ${installer.agent} PreToolUse hook is already in ${settingsFile}; nothing changed\n`,
    );
    this.context.stdout.write(`the hook command works: ${check.message} (agentgov's side only)\n`);
    const doctor = `agentgov doctor${this.project === '.' ? '' : ` --project ${this.project}`}`;
    if (report.state === 'active') {
      this.context.stdout.write(
        `verified: ${installer.agent} will call the hook` +
          `${installer.testedWith ? ` (as ${installer.testedWith} does)` : ''}:\n` +
          `${activationLines(report)}`,
      );
    } else {
      const head =
        report.state === 'inactive'
          ? `NOT ACTIVE YET: ${installer.agent} will not call this hook until you`
          : `NOT VERIFIED: agentgov could not confirm that ${installer.agent} calls this hook; check`;
      this.context.stdout.write(
        `${head}:\n${remainingSteps(report)}then run \`` +
          `${doctor}\`, which fails until ${installer.agent} will call the hook\n`,
      );
    }
    if (mcpHint)
      this.context.stdout.write(`to give ${this.agent} the agentgov tools too, register the MCP server: ${mcpHint}\n`);
    return EXIT.OK;
  }
}
