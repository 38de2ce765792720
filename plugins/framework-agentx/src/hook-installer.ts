import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AgentgovError, type HookInstaller } from '@agentgov/core';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A hook command written by an earlier `init` (possibly with another binary path). */
const GATE_COMMAND = /\bagentgov(?:\.js|\.mjs)?["']?\s+gate\s+--stdin\b/;

export function settingsFileOf(projectDir: string): string {
  return join(projectDir, '.agentx', 'settings.json');
}

function readSettings(file: string): Json {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw new AgentgovError('E_SETTINGS_INVALID', `${file} is not valid JSON (${(error as Error).message}); it was left untouched`, { file });
  }
  if (!isObject(value)) throw new AgentgovError('E_SETTINGS_INVALID', `${file} must hold a JSON object; it was left untouched`, { file });
  return value;
}

function preToolUseOf(settings: Json, file: string): unknown[] {
  const hooks = settings['hooks'] ?? {};
  if (!isObject(hooks)) throw new AgentgovError('E_SETTINGS_INVALID', `${file}: "hooks" must be an object; the file was left untouched`, { file, key: 'hooks' });
  const pre = hooks['PreToolUse'] ?? [];
  if (!Array.isArray(pre)) throw new AgentgovError('E_SETTINGS_INVALID', `${file}: "hooks.PreToolUse" must be an array; the file was left untouched`, { file, key: 'hooks.PreToolUse' });
  settings['hooks'] = { ...hooks, PreToolUse: pre };
  return pre;
}

/** Command hooks inside PreToolUse entries: `[{matcher, hooks: [{type, command}]}]`. */
function commandHooks(pre: unknown[]): Json[] {
  return pre.flatMap((entry) => (isObject(entry) && Array.isArray(entry['hooks']) ? entry['hooks'].filter(isObject) : [])).filter((h) => h['type'] === 'command');
}

/**
 * Adds `{matcher: "*", hooks: [{type: "command", command}]}` to `hooks.PreToolUse` in
 * `<project>/.agentx/settings.json`, keeping every other setting. An agentgov gate hook already
 * present is left as is (same command) or pointed at the new command; nothing else changes.
 */
export async function installPreToolUseHook(projectDir: string, gateCommand: string): Promise<{ changed: boolean; settingsFile: string }> {
  const file = settingsFileOf(projectDir);
  const settings = readSettings(file);
  const pre = preToolUseOf(settings, file);
  const hooks = commandHooks(pre);
  if (hooks.some((h) => h['command'] === gateCommand)) return { changed: false, settingsFile: file };
  const earlier = hooks.find((h) => typeof h['command'] === 'string' && GATE_COMMAND.test(h['command']));
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

export const agentxHookInstaller: HookInstaller = { agent: 'agentx-code', install: installPreToolUseHook };
