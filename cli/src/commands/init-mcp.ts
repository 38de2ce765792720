/**
 * `agentgov init AGENT --mcp`: registers `agentgov serve` as an MCP server in the agent's own MCP
 * configuration, through the framework plugin's McpRegistrar (Claude Code `.mcp.json`, Codex
 * `config.toml`, Gemini CLI `settings.json`, Cursor `.cursor/mcp.json`). The server is started as
 * `<node> <agentgov bin entry> serve`, both by absolute real path, like the gate hook; a project
 * scope pins `--repo` to the project.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BaseContext } from 'clipanion';
import type { ErrorCode, PluginHost } from '@agentgov/core';
import { BIN_ENTRY } from '../gate/hook-command.js';
import { EXIT } from './base.js';

export interface InitMcpOptions {
  agent: string;
  project: string;
  scope: string | undefined;
}

/**
 * Where agentgov keeps its files, as this shell says, written into the registration: agents start MCP
 * servers with a filtered environment (Codex passes a short whitelist), so without it the server the
 * agent starts would use another home and configuration. Only variables that are set; paths absolute.
 */
export function serverEnv(env: NodeJS.ProcessEnv): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const name of ['AGENTGOV_HOME', 'AGENTGOV_CONFIG']) if (env[name]) out[name] = resolve(env[name]!);
  return Object.keys(out).length ? out : undefined;
}

/** What registerMcpServer needs of the `init` command: its output streams, `--json`, and its way to fail. */
export interface InitMcpCommand {
  context: BaseContext;
  json?: boolean;
  fail(code: ErrorCode, message: string): number;
  writeJson(value: unknown): void;
}

export async function registerMcpServer(
  host: PluginHost,
  options: InitMcpOptions,
  command: InitMcpCommand,
): Promise<number> {
  const { context } = command;
  const registrars = host.registries.frameworks.values().filter((f) => f.mcpRegistrar);
  const registrar = registrars.find((f) => f.name === options.agent)?.mcpRegistrar;
  if (!registrar) {
    const known = registrars.map((f) => f.name).join(', ') || '(none)';
    return command.fail('E_INVALID_ARGUMENT', `'${options.agent}' has no MCP registration; agents with one: ${known}`);
  }
  const scope = options.scope ?? registrar.scopes[0];
  if (scope === undefined || !registrar.scopes.includes(scope)) {
    return command.fail(
      'E_INVALID_ARGUMENT',
      `--scope must be one of ${registrar.scopes.join(', ')} for ${options.agent} --mcp (got ${options.scope})`,
    );
  }
  const projectDir = resolve(options.project);
  if (!existsSync(projectDir) || !statSync(projectDir).isDirectory()) {
    return command.fail('E_NOT_FOUND', `project directory ${projectDir} does not exist`);
  }
  const server = {
    command: realpathSync(process.execPath),
    args: [realpathSync(BIN_ENTRY), 'serve', ...(scope === 'user' ? [] : ['--repo', projectDir])],
    env: serverEnv(process.env),
  };
  const { changed, configFile } = await registrar.register(projectDir, server, { scope, env: process.env });
  const steps = registrar.remainingSteps?.(projectDir, { scope, env: process.env }) ?? [];
  if (command.json) {
    command.writeJson({ agent: options.agent, scope, config_file: configFile, changed, server, steps });
    return EXIT.OK;
  }
  const envText = server.env
    ? `\n  with ${Object.entries(server.env)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`
    : '';
  context.stdout.write(
    changed
      ? `registered the agentgov MCP server for ` +
          `${options.agent} in ${configFile}:\n  ` +
          `${[server.command, ...server.args].join(' ')}` +
          `${envText}\n`
      : `the agentgov MCP server is already registered for ${options.agent} in ${configFile}; nothing changed\n`,
  );
  if (steps.length)
    context.stdout.write(
      `for ${options.agent} to use it, you still have to:\n${steps.map((step, i) => `  ${i + 1}. ${step}\n`).join('')}`,
    );
  return EXIT.OK;
}
