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
import type { PluginHost } from '@agentgov/core';
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

export async function registerMcpServer(
  host: PluginHost,
  options: InitMcpOptions,
  context: BaseContext,
): Promise<number> {
  const registrars = host.registries.frameworks.values().filter((f) => f.mcpRegistrar);
  const registrar = registrars.find((f) => f.name === options.agent)?.mcpRegistrar;
  if (!registrar) {
    context.stderr.write(
      `error [E_INVALID_ARGUMENT]: '${options.agent}' has no MCP registration; agents with one: ${registrars.map((f) => f.name).join(', ') || '(none)'}\n`,
    );
    return EXIT.USAGE;
  }
  const scope = options.scope ?? registrar.scopes[0];
  if (scope === undefined || !registrar.scopes.includes(scope)) {
    context.stderr.write(
      `error [E_INVALID_ARGUMENT]: --scope must be one of ${registrar.scopes.join(', ')} for ${options.agent} --mcp (got ${options.scope})\n`,
    );
    return EXIT.USAGE;
  }
  const projectDir = resolve(options.project);
  if (!existsSync(projectDir) || !statSync(projectDir).isDirectory()) {
    context.stderr.write(`error [E_NOT_FOUND]: project directory ${projectDir} does not exist\n`);
    return EXIT.UNAVAILABLE;
  }
  const server = {
    command: realpathSync(process.execPath),
    args: [realpathSync(BIN_ENTRY), 'serve', ...(scope === 'user' ? [] : ['--repo', projectDir])],
    env: serverEnv(process.env),
  };
  const { changed, configFile } = await registrar.register(projectDir, server, { scope, env: process.env });
  const envText = server.env
    ? `\n  with ${Object.entries(server.env)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`
    : '';
  context.stdout.write(
    changed
      ? `registered the agentgov MCP server for ${options.agent} in ${configFile}:\n  ${[server.command, ...server.args].join(' ')}${envText}\n`
      : `the agentgov MCP server is already registered for ${options.agent} in ${configFile}; nothing changed\n`,
  );
  const steps = registrar.remainingSteps?.(projectDir, { scope, env: process.env }) ?? [];
  if (steps.length)
    context.stdout.write(
      `for ${options.agent} to use it, you still have to:\n${steps.map((step, i) => `  ${i + 1}. ${step}\n`).join('')}`,
    );
  return EXIT.OK;
}
