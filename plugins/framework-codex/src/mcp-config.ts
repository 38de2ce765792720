/**
 * Codex's MCP servers: `[mcp_servers.<name>]` tables of config.toml (`command`, `args`, `env`) — `project`
 * = `<project>/.codex/config.toml` (read for trusted projects), `user` = `$CODEX_HOME/config.toml`.
 * The file is people's own, comments included, so it is never re-serialised: a missing table is
 * appended as text, a different one has its lines replaced, and the result must parse (smol-toml)
 * to the intended entry before it is written. agentgov's table says `required = true`: Codex then waits
 * for the server before its first model request (an optional server that is still starting leaves its
 * tools out of the first turn) and stops with an error when it cannot start.
 */
import { join } from 'node:path';
import {
  AgentgovError,
  isJsonObject,
  readSettingsText,
  writeSettingsText,
  type McpRegistrar,
  type McpServerEntry,
} from '@agentgov/core';
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
    throw new AgentgovError(
      'E_SETTINGS_INVALID',
      `${file} is not valid TOML (${(error as Error).message.split('\n')[0]}); it was left untouched`,
      { file },
    );
  }
}

const serverOf = (doc: Record<string, unknown>): unknown => {
  const servers = doc['mcp_servers'];
  return isJsonObject(servers) ? servers[NAME] : undefined;
};

/** The table agentgov writes: Codex waits for a `required` server before its first model request. */
function tableOf(server: McpServerEntry): Record<string, unknown> {
  return {
    command: server.command,
    args: server.args,
    required: true,
    ...(server.env && Object.keys(server.env).length ? { env: server.env } : {}),
  };
}

const sameServer = (found: unknown, server: McpServerEntry): boolean =>
  isJsonObject(found) && JSON.stringify(found) === JSON.stringify(tableOf(server));

const tomlKey = (key: string): string => (/^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key));

/** The text of `text` with the `[mcp_servers.agentgov]` table (and any subtable of it) set to `server`. */
export function withCodexMcpServer(text: string, server: McpServerEntry): string {
  const { env, ...plain } = tableOf(server) as { env?: Record<string, string> };
  const lines = stringify({ mcp_servers: { [NAME]: plain } })
    .trim()
    .split('\n');
  if (env)
    lines.push(
      `env = { ${Object.entries(env)
        .map(([k, v]) => `${tomlKey(k)} = ${JSON.stringify(v)}`)
        .join(', ')} }`,
    );
  const table = lines.join('\n');
  const header = /^\s*\[\s*mcp_servers\s*\.\s*(?:agentgov|"agentgov")\s*\]\s*(?:#.*)?$/m.exec(text);
  if (!header)
    return `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${text.trim() === '' ? '' : '\n'}${table}\n`;
  const start = header.index;
  const rest = text.slice(start + header[0].length);
  // The table ends at the next header that is not one of its own subtables ([mcp_servers.agentgov.env]).
  const next = /^\s*\[(?!\s*mcp_servers\s*\.\s*(?:agentgov|"agentgov")\s*\.)/m.exec(rest);
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
    if (found !== undefined && !isJsonObject(found))
      throw new AgentgovError(
        'E_SETTINGS_INVALID',
        `${configFile}: mcp_servers.${NAME} must be a table; the file was left untouched`,
        { file: configFile, key: `mcp_servers.${NAME}` },
      );
    if (sameServer(found, server)) return { changed: false, configFile };
    const next = withCodexMcpServer(text, server);
    if (!sameServer(serverOf(parseToml(next, configFile)), server)) {
      throw new AgentgovError(
        'E_SETTINGS_INVALID',
        `${configFile}: could not place [mcp_servers.` +
          `${NAME}] without changing other settings (it may be defined inline); the ` +
          `file was left untouched`,
        { file: configFile },
      );
    }
    writeSettingsText(configFile, next);
    return { changed: true, configFile };
  },
  remainingSteps(projectDir, { scope }) {
    if (scope !== 'project') return [];
    return [
      `Codex reads ${join(projectDir, '.codex', 'config.toml')} only in a trusted ` +
        `project: start \`codex\` in ${projectDir} and answer that you trust this ` +
        `folder (headless: add \`--trust\` to one \`codex exec\` run in it)`,
    ];
  },
};
