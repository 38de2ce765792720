/**
 * Codex's MCP servers: `[mcp_servers.<name>]` tables of config.toml (`command`, `args`) — `project`
 * = `<project>/.codex/config.toml` (read for trusted projects), `user` = `$CODEX_HOME/config.toml`.
 * The file is people's own, comments included, so it is never re-serialised: a missing table is
 * appended as text, a different one has its lines replaced, and the result must parse (smol-toml)
 * to the intended entry before it is written.
 */
import { join } from 'node:path';
import { AgentgovError, isJsonObject, readSettingsText, writeSettingsText, type McpRegistrar, type McpServerEntry } from '@agentgov/core';
import { parse, stringify } from 'smol-toml';
import { codexHome } from './home.js';

const NAME = 'agentgov';

export function codexConfigFile(projectDir: string, scope: string, env: NodeJS.ProcessEnv): string {
  return scope === 'user' ? join(codexHome(env), 'config.toml') : join(projectDir, '.codex', 'config.toml');
}

function parseToml(text: string, file: string): Record<string, unknown> {
  try {
    return parse(text);
  } catch (error) {
    throw new AgentgovError('E_SETTINGS_INVALID', `${file} is not valid TOML (${(error as Error).message.split('\n')[0]}); it was left untouched`, { file });
  }
}

const serverOf = (doc: Record<string, unknown>): unknown => {
  const servers = doc['mcp_servers'];
  return isJsonObject(servers) ? servers[NAME] : undefined;
};

const sameServer = (found: unknown, server: McpServerEntry): boolean => isJsonObject(found) && found['command'] === server.command && JSON.stringify(found['args']) === JSON.stringify(server.args);

/** The text of `text` with the `[mcp_servers.agentgov]` table set to `server`. */
export function withCodexMcpServer(text: string, server: McpServerEntry): string {
  const table = stringify({ mcp_servers: { [NAME]: { command: server.command, args: server.args } } }).trim();
  const header = /^\s*\[\s*mcp_servers\s*\.\s*(?:agentgov|"agentgov")\s*\]\s*(?:#.*)?$/m.exec(text);
  if (!header) return `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${text.trim() === '' ? '' : '\n'}${table}\n`;
  const start = header.index;
  const rest = text.slice(start + header[0].length);
  const next = /^\s*\[/m.exec(rest);
  const end = next ? start + header[0].length + next.index : text.length;
  return `${text.slice(0, start)}${table}\n${next ? '\n' : ''}${text.slice(end).replace(/^\n+/, '')}`;
}

export const codexMcpRegistrar: McpRegistrar = {
  scopes: ['project', 'user'],
  async register(projectDir, server, { scope, env }) {
    const configFile = codexConfigFile(projectDir, scope, env);
    const text = readSettingsText(configFile) ?? '';
    const doc = parseToml(text, configFile);
    const found = serverOf(doc);
    if (found !== undefined && !isJsonObject(found)) throw new AgentgovError('E_SETTINGS_INVALID', `${configFile}: mcp_servers.${NAME} must be a table; the file was left untouched`, { file: configFile, key: `mcp_servers.${NAME}` });
    if (sameServer(found, server)) return { changed: false, configFile };
    const next = withCodexMcpServer(text, server);
    if (!sameServer(serverOf(parseToml(next, configFile)), server)) {
      throw new AgentgovError('E_SETTINGS_INVALID', `${configFile}: could not place [mcp_servers.${NAME}] without changing other settings (it may be defined inline); the file was left untouched`, { file: configFile });
    }
    writeSettingsText(configFile, next);
    return { changed: true, configFile };
  },
};
