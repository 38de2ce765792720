import { join } from 'node:path';
import { registerJsonMcpServer, type McpRegistrar } from '@agentgov/core';
import { geminiDir } from './home.js';

/** Gemini CLI's settings file of a scope: `project` = `<project>/.gemini/settings.json`, `user` = `~/.gemini/settings.json`. */
export function geminiSettingsFile(projectDir: string, scope: string, env: NodeJS.ProcessEnv): string {
  return scope === 'user' ? join(geminiDir(env), 'settings.json') : join(projectDir, '.gemini', 'settings.json');
}

/** Gemini CLI's MCP servers: `mcpServers` of settings.json (`{name: {command, args}}`). */
export const geminiMcpRegistrar: McpRegistrar = {
  scopes: ['project', 'user'],
  async register(projectDir, server, { scope, env }) {
    const configFile = geminiSettingsFile(projectDir, scope, env);
    return { ...registerJsonMcpServer(configFile, 'agentgov', { command: server.command, args: server.args }), configFile };
  },
};
