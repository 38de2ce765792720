import { join } from 'node:path';
import { agentgovHome, registerJsonMcpServer, type McpRegistrar } from '@agentgov/core';
import { geminiDir } from './home.js';

/**
 * Gemini CLI's settings file of a scope: `project` = `<project>/.gemini/settings.json`, `user` =
 * `~/.gemini/settings.json`.
 */
export function geminiSettingsFile(projectDir: string, scope: string, env: NodeJS.ProcessEnv): string {
  return scope === 'user' ? join(geminiDir(env), 'settings.json') : join(projectDir, '.gemini', 'settings.json');
}

/**
 * Gemini CLI's MCP servers: `mcpServers` of settings.json (`{name: {command, args, env}}`). `user`
 * first, as for the hook: a project's settings are ignored until the folder is trusted. `env` pins
 * AGENTGOV_HOME, so the server keeps agentgov's files where the user's configuration says.
 */
export const geminiMcpRegistrar: McpRegistrar = {
  scopes: ['user', 'project'],
  async register(projectDir, server, { scope, env }) {
    const configFile = geminiSettingsFile(projectDir, scope, env);
    // The resolved home, and whatever the host passes along (AGENTGOV_CONFIG, …) on top.
    const serverEnv = { AGENTGOV_HOME: agentgovHome(env), ...(server as { env?: Record<string, string> }).env };
    const entry = { command: server.command, args: server.args, env: serverEnv };
    return { ...registerJsonMcpServer(configFile, 'agentgov', entry), configFile };
  },
};
