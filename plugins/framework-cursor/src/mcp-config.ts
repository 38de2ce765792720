import { join } from 'node:path';
import { registerJsonMcpServer, type McpRegistrar } from '@agentgov/core';
import { cursorDir } from './home.js';

/**
 * Cursor's MCP servers: `project` = `<project>/.cursor/mcp.json`, `user` = `~/.cursor/mcp.json`, both `{"mcpServers":
 * {…}}`.
 */
export function cursorMcpConfigFile(projectDir: string, scope: string, env: NodeJS.ProcessEnv): string {
  return scope === 'user' ? join(cursorDir(env), 'mcp.json') : join(projectDir, '.cursor', 'mcp.json');
}

export const cursorMcpRegistrar: McpRegistrar = {
  scopes: ['project', 'user'],
  async register(projectDir, server, { scope, env }) {
    const configFile = cursorMcpConfigFile(projectDir, scope, env);
    return {
      ...registerJsonMcpServer(configFile, 'agentgov', {
        command: server.command,
        args: server.args,
        ...(server.env ? { env: server.env } : {}),
      }),
      configFile,
    };
  },
};
