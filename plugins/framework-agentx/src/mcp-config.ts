import { join } from 'node:path';
import { agentxHome, registerJsonMcpServer, type McpRegistrar } from '@agentgov/core';
import { settingsFileOf } from './hook-installer.js';

/**
 * agentx-code's MCP servers live in its settings, as `{"mcpServers": {name: {type, command, args}}}`
 * (the Claude Code shape): `project` = `<project>/.agentx/settings.json` (beside the gate hook),
 * `local` = `<project>/.agentx/settings.local.json`, `user` = `$AGENTX_HOME/settings.json`.
 */
export function agentxMcpConfigFile(projectDir: string, scope: string, env: NodeJS.ProcessEnv): string {
  return scope === 'user' ? join(agentxHome(env), 'settings.json') : settingsFileOf(projectDir, scope);
}

export const agentxMcpRegistrar: McpRegistrar = {
  scopes: ['project', 'local', 'user'],
  async register(projectDir, server, { scope, env }) {
    const configFile = agentxMcpConfigFile(projectDir, scope, env);
    return {
      ...registerJsonMcpServer(configFile, 'agentgov', {
        type: 'stdio',
        command: server.command,
        args: server.args,
        ...(server.env ? { env: server.env } : {}),
      }),
      configFile,
    };
  },
};
