import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AgentgovError, isGateHookCommand, type HookInstaller, type HookInstallOptions } from '@agentgov/core';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Settings scopes: `project` is the shared `.agentx/settings.json`, `local` the personal `.agentx/settings.local.json`.
 */
export const SCOPES = ['project', 'local'];

export function settingsFileOf(projectDir: string, scope = 'project'): string {
  if (!SCOPES.includes(scope))
    throw new AgentgovError(
      'E_INVALID_ARGUMENT',
      `unknown settings scope '${scope}'; agentx-code has ${SCOPES.join(', ')}`,
      { scope },
    );
  return join(projectDir, '.agentx', scope === 'local' ? 'settings.local.json' : 'settings.json');
}

/** A hook command an earlier `init` wrote, whichever way agentgov was started then: core's one pattern for it. */
export { isGateHookCommand as isGateCommand };

function readSettings(file: string): Json {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw new AgentgovError(
      'E_SETTINGS_INVALID',
      `${file} is not valid JSON (${(error as Error).message}); it was left untouched`,
      { file },
    );
  }
  if (!isObject(value))
    throw new AgentgovError('E_SETTINGS_INVALID', `${file} must hold a JSON object; it was left untouched`, { file });
  return value;
}

function preToolUseOf(settings: Json, file: string): unknown[] {
  const hooks = settings['hooks'] ?? {};
  if (!isObject(hooks))
    throw new AgentgovError('E_SETTINGS_INVALID', `${file}: "hooks" must be an object; the file was left untouched`, {
      file,
      key: 'hooks',
    });
  const pre = hooks['PreToolUse'] ?? [];
  if (!Array.isArray(pre))
    throw new AgentgovError(
      'E_SETTINGS_INVALID',
      `${file}: "hooks.PreToolUse" must be an array; the file was left untouched`,
      { file, key: 'hooks.PreToolUse' },
    );
  settings['hooks'] = { ...hooks, PreToolUse: pre };
  return pre;
}

/** Command hooks inside PreToolUse entries: `[{matcher, hooks: [{type, command}]}]`. */
function commandHooks(pre: unknown[]): Json[] {
  return pre
    .flatMap((entry) => (isObject(entry) && Array.isArray(entry['hooks']) ? entry['hooks'].filter(isObject) : []))
    .filter((h) => h['type'] === 'command');
}

/**
 * Adds `{matcher: "*", hooks: [{type: "command", command}]}` to `hooks.PreToolUse` in
 * `<project>/.agentx/settings.json`, keeping every other setting. An agentgov gate hook already
 * present is left as is (same command) or pointed at the new command; nothing else changes.
 */
export async function installPreToolUseHook(
  projectDir: string,
  gateCommand: string,
  options: HookInstallOptions = {},
): Promise<{ changed: boolean; settingsFile: string }> {
  const file = settingsFileOf(projectDir, options.scope);
  const settings = readSettings(file);
  const pre = preToolUseOf(settings, file);
  const hooks = commandHooks(pre);
  if (hooks.some((h) => h['command'] === gateCommand)) return { changed: false, settingsFile: file };
  const earlier = hooks.find((h) => isGateHookCommand(h['command']));
  if (earlier) earlier['command'] = gateCommand;
  else pre.push({ matcher: '*', hooks: [{ type: 'command', command: gateCommand }] });
  mkdirSync(dirname(file), { recursive: true });
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o644;
  // Write a sibling then rename, so a crash never leaves a half-written settings file.
  const temp = `${file}.agentgov-${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(settings, null, 2)}\n`, { mode });
  renameSync(temp, file);
  return { changed: true, settingsFile: file };
}

/** The agentgov gate commands in the scope's settings file (none when the file does not exist). */
export async function installedGateCommands(
  projectDir: string,
  options: HookInstallOptions = {},
): Promise<{ settingsFile: string; commands: string[] }> {
  const file = settingsFileOf(projectDir, options.scope);
  const settings = readSettings(file);
  const commands = commandHooks(preToolUseOf(settings, file))
    .map((h) => h['command'])
    .filter(isGateHookCommand);
  return { settingsFile: file, commands };
}

/**
 * agentx-code (this repository's reference agent) reads both settings files on every start, in every
 * mode, with no trust or review step of its own: the one condition is that it is started in the project.
 */
export const agentxHookInstaller: HookInstaller = {
  agent: 'agentx-code',
  format: 'agentx-code',
  scopes: SCOPES,
  install: installPreToolUseHook,
  installed: installedGateCommands,
  async activation(projectDir, options = {}) {
    const file = settingsFileOf(projectDir, options.scope);
    return [
      { name: 'settings read', status: 'ok', detail: `agentx-code reads ${file} whenever it starts in ${projectDir}` },
    ];
  },
};
