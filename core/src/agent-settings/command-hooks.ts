/**
 * Writing a gate hook into an agent's own hook settings, in the two layouts the supported agents
 * use, keeping every other setting and hook:
 *
 * - matcher groups — `{hooks: {<event>: [{matcher?, hooks: [{type: "command", command}]}]}}`:
 *   Claude Code and agentx-code settings, Codex hooks.json, Gemini CLI settings.json;
 * - flat entries — `{version: 1, hooks: {<event>: [{command}]}}`: Cursor hooks.json, Copilot CLI
 *   hook files (whose command key is `bash`).
 *
 * Idempotent: the same command already there changes nothing; an agentgov gate command written
 * earlier (another path, another format) is pointed at the new command instead of duplicated.
 */
import { isJsonObject } from '../capture/json-lines.js';
import { arrayAt, objectAt, readJsonSettings, writeJsonSettings } from './settings-file.js';

type Json = Record<string, unknown>;

/**
 * A command an earlier `init` wrote: agentgov's bin, its bin entry through node, or the checkout's entry, running `gate
 * --stdin`.
 */
const GATE_COMMAND = /(?:\bagentgov(?:\.js|\.mjs)?|\/cli|\/main\.js)["']?\s+gate\s+--stdin\b/;

export function isGateHookCommand(command: unknown): command is string {
  return typeof command === 'string' && GATE_COMMAND.test(command);
}

export interface MatcherGroupHook {
  event: string;
  /** The group's matcher; omitted when undefined (the agent then runs the hook for every tool). */
  matcher?: string;
  /** More fields of the command hook (`timeout`, `name`, …). */
  extra?: Json;
}

function commandHooksOf(groups: unknown[]): Json[] {
  return groups
    .flatMap((group) =>
      isJsonObject(group) && Array.isArray(group['hooks']) ? group['hooks'].filter(isJsonObject) : [],
    )
    .filter((hook) => hook['type'] === 'command');
}

export function installMatcherGroupHook(file: string, hook: MatcherGroupHook, command: string): { changed: boolean } {
  const settings = readJsonSettings(file);
  const groups = arrayAt(objectAt(settings, 'hooks', file), hook.event, file, `hooks.${hook.event}`);
  const hooks = commandHooksOf(groups);
  if (hooks.some((h) => h['command'] === command)) return { changed: false };
  const earlier = hooks.find((h) => isGateHookCommand(h['command']));
  if (earlier) earlier['command'] = command;
  else
    groups.push({
      ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }),
      hooks: [{ type: 'command', command, ...hook.extra }],
    });
  writeJsonSettings(file, settings);
  return { changed: true };
}

/** The agentgov gate commands of `event` in a matcher-group settings file. */
export function matcherGroupGateCommands(file: string, event: string): string[] {
  const hooks = readJsonSettings(file)['hooks'];
  const groups = isJsonObject(hooks) && Array.isArray(hooks[event]) ? hooks[event] : [];
  return commandHooksOf(groups)
    .map((h) => h['command'])
    .filter(isGateHookCommand);
}

export interface FlatHook {
  events: string[];
  /** The key holding the shell command (`command`; Copilot CLI: `bash`). */
  commandKey?: string;
  extra?: Json;
}

export function installFlatHook(file: string, hook: FlatHook, command: string): { changed: boolean } {
  const key = hook.commandKey ?? 'command';
  const settings = readJsonSettings(file);
  const hooks = objectAt(settings, 'hooks', file);
  let changed = false;
  if (settings['version'] === undefined) {
    settings['version'] = 1;
    changed = true;
  }
  for (const event of hook.events) {
    const entries = arrayAt(hooks, event, file, `hooks.${event}`);
    const own = entries.filter(isJsonObject);
    if (own.some((e) => e[key] === command)) continue;
    const earlier = own.find((e) => isGateHookCommand(e[key]));
    if (earlier) earlier[key] = command;
    else entries.push({ ...hook.extra, [key]: command });
    changed = true;
  }
  if (changed) writeJsonSettings(file, settings);
  return { changed };
}

/** The agentgov gate commands of the events in a flat hooks file, each once. */
export function flatGateCommands(file: string, events: string[], commandKey = 'command'): string[] {
  const hooks = readJsonSettings(file)['hooks'];
  if (!isJsonObject(hooks)) return [];
  return [
    ...new Set(
      events
        .flatMap((event) =>
          Array.isArray(hooks[event]) ? hooks[event].filter(isJsonObject).map((e) => e[commandKey]) : [],
        )
        .filter(isGateHookCommand),
    ),
  ];
}
