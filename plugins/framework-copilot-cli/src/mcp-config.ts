import { join } from 'node:path';
import { agentgovHome, registerJsonMcpServer, type McpRegistrar } from '@agentgov/core';
import { copilotHome } from './home.js';

/**
 * Copilot CLI's MCP configuration of a scope: `user` = `$COPILOT_HOME/mcp-config.json`,
 * `project` = `<project>/.github/mcp.json` (it reads `.mcp.json` too, but that file is Claude Code's).
 */
export function copilotMcpConfigFile(projectDir: string, scope: string, env: NodeJS.ProcessEnv): string {
  return scope === 'user' ? join(copilotHome(env), 'mcp-config.json') : join(projectDir, '.github', 'mcp.json');
}

/**
 * `mcpServers.agentgov = {type: "local", command, args, env, tools: ["*"]}`. `user` first: prompt
 * mode loads a workspace's MCP servers only in a trusted folder or with
 * `GITHUB_COPILOT_PROMPT_MODE_WORKSPACE_MCP=true`. `env` pins AGENTGOV_HOME, so the server keeps
 * agentgov's files where the user's configuration says.
 */
export const copilotMcpRegistrar: McpRegistrar = {
  scopes: ['user', 'project'],
  async register(projectDir, server, { scope, env }) {
    const configFile = copilotMcpConfigFile(projectDir, scope, env);
    // The resolved home, and whatever the host passes along (AGENTGOV_CONFIG, …) on top.
    const serverEnv = { AGENTGOV_HOME: agentgovHome(env), ...(server as { env?: Record<string, string> }).env };
    const entry = { type: 'local', command: server.command, args: server.args, env: serverEnv, tools: ['*'] };
    return { ...registerJsonMcpServer(configFile, 'agentgov', entry), configFile };
  },
};
