import { join } from 'node:path';
import { registerJsonMcpServer, type McpRegistrar } from '@agentgov/core';
import { claudeConfigDir } from './home.js';

/**
 * Claude Code's MCP servers: `project` = `<project>/.mcp.json` (shared with the team), `user` =
 * `.claude.json` in the configuration directory's parent home (`~/.claude.json`, or
 * `$CLAUDE_CONFIG_DIR/.claude.json` when that is set) — both `{"mcpServers": {name: {type, command, args}}}`.
 */
export function claudeMcpConfigFile(projectDir: string, scope: string, env: NodeJS.ProcessEnv): string {
  if (scope !== 'user') return join(projectDir, '.mcp.json');
  return env['CLAUDE_CONFIG_DIR']
    ? join(claudeConfigDir(env), '.claude.json')
    : join(claudeConfigDir(env), '..', '.claude.json');
}

export const claudeMcpRegistrar: McpRegistrar = {
  scopes: ['project', 'user'],
  async register(projectDir, server, { scope, env }) {
    const configFile = claudeMcpConfigFile(projectDir, scope, env);
    const entry = {
      type: 'stdio',
      command: server.command,
      args: server.args,
      ...(server.env ? { env: server.env } : {}),
    };
    return { ...registerJsonMcpServer(configFile, 'agentgov', entry), configFile };
  },
  remainingSteps(projectDir, { scope }) {
    const steps = [
      'Claude Code asks before it runs an MCP tool: headless (`claude -p`) allow ' +
        "agentgov's tools with `--allowedTools mcp__agentgov` (or a `permissions.allow` " +
        'rule `mcp__agentgov` in your settings), interactively answer its prompt',
    ];
    if (scope === 'project')
      steps.unshift(
        `an interactive Claude Code asks once whether to use the servers of ` +
          `${join(projectDir, '.mcp.json')}: approve agentgov`,
      );
    return steps;
  },
};
