/**
 * Reading and writing an agent's own settings files (hooks, MCP servers) without ever losing what
 * is in them: a file that does not parse is left untouched (E_SETTINGS_INVALID), a write goes to
 * a sibling first and is renamed into place, keeping the file's mode.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isJsonObject } from '../capture/json-lines.js';
import { AgentgovError } from '../errors/index.js';

type Json = Record<string, unknown>;

/** The file's text, or undefined when it does not exist. */
export function readSettingsText(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** A JSON settings file as an object: {} when missing or blank; anything else that is not an object is refused. */
export function readJsonSettings(file: string): Json {
  const text = readSettingsText(file);
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AgentgovError(
      'E_SETTINGS_INVALID',
      `${file} is not valid JSON (${(error as Error).message}); it was left untouched`,
      { file },
    );
  }
  if (!isJsonObject(value))
    throw new AgentgovError('E_SETTINGS_INVALID', `${file} must hold a JSON object; it was left untouched`, { file });
  return value;
}

/** `settings[key]` as an object (created when absent); another type is refused, naming the key. */
export function objectAt(settings: Json, key: string, file: string): Json {
  const value = settings[key] ?? {};
  if (!isJsonObject(value))
    throw new AgentgovError('E_SETTINGS_INVALID', `${file}: "${key}" must be an object; the file was left untouched`, {
      file,
      key,
    });
  settings[key] = value;
  return value;
}

/** `settings[key]` as an array (created when absent); another type is refused, naming the key. */
export function arrayAt(settings: Json, key: string, file: string, path = key): unknown[] {
  const value = settings[key] ?? [];
  if (!Array.isArray(value))
    throw new AgentgovError('E_SETTINGS_INVALID', `${file}: "${path}" must be an array; the file was left untouched`, {
      file,
      key: path,
    });
  settings[key] = value;
  return value;
}

/** Writes `text` to `file` through a sibling and a rename, keeping an existing file's mode. */
export function writeSettingsText(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o644;
  const temp = `${file}.agentgov-${process.pid}.tmp`;
  writeFileSync(temp, text, { mode });
  renameSync(temp, file);
}

export function writeJsonSettings(file: string, settings: Json): void {
  writeSettingsText(file, `${JSON.stringify(settings, null, 2)}\n`);
}

const sameEntry = (a: unknown, b: Json): boolean =>
  isJsonObject(a) && Object.entries(b).every(([k, v]) => JSON.stringify(a[k]) === JSON.stringify(v));

/**
 * Registers `entry` as `settings.mcpServers[name]` of a JSON file (Claude Code `.mcp.json`, Cursor
 * `mcp.json`, Gemini CLI `settings.json`), keeping every other key and server. Idempotent: an
 * identical entry changes nothing; a different one under the same name is updated in place.
 */
export function registerJsonMcpServer(file: string, name: string, entry: Json): { changed: boolean } {
  const settings = readJsonSettings(file);
  const servers = objectAt(settings, 'mcpServers', file);
  if (sameEntry(servers[name], entry)) return { changed: false };
  servers[name] = { ...(isJsonObject(servers[name]) ? servers[name] : {}), ...entry };
  writeJsonSettings(file, settings);
  return { changed: true };
}
