import type { AgentgovConfig } from '../config/types.js';
import type { AgentgovHooks } from '../hooks/hooks.js';
import type { Logger } from '../logging/logger.js';

/** What a plugin's `apply` receives besides the hooks. */
export interface PluginContext<Options> {
  /** The plugin's options, validated against its `optionsSchema`, with schema defaults filled in. */
  options: Options;
  /** The effective configuration. */
  config: AgentgovConfig;
  /** A logger scoped to the plugin's name. */
  logger: Logger;
  /** Which program hosts the plugin. */
  host: 'server' | 'cli';
  /** The config file in effect (null for defaults) and the directory relative paths resolve from. */
  configFile: string | null;
  baseDir: string;
}

/**
 * A plugin: a named module that taps the host's hooks. It taps under its own `name`, orders itself
 * with tapable's `stage`/`before`, and never depends on its position in the config.
 */
export interface AgentgovPlugin<Options = Record<string, unknown>> {
  name: string;
  /** JSON Schema (draft-07) for the options; validated before `apply` runs. */
  optionsSchema?: object;
  apply(hooks: AgentgovHooks, context: PluginContext<Options>): void | Promise<void>;
}

/** Declares a plugin with full types; returns it unchanged. */
export function definePlugin<Options = Record<string, unknown>>(
  plugin: AgentgovPlugin<Options>,
): AgentgovPlugin<Options> {
  return plugin;
}

export function isPlugin(value: unknown): value is AgentgovPlugin<unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { name?: unknown }).name === 'string' &&
    (value as { name: string }).name.length > 0 &&
    typeof (value as { apply?: unknown }).apply === 'function'
  );
}
