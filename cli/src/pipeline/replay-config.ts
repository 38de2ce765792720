import type { LoadedConfig, PluginConfigEntry, PluginHost } from '@agentgov/core';

export const JSONL_SINK_PLUGIN = '@agentgov/plugin-sink-jsonl';

const specifierOf = (entry: PluginConfigEntry): string => (typeof entry === 'string' ? entry : entry.plugin);

/**
 * The effective config for `replay --output FILE`: the jsonl sink configured to FILE, every other
 * plugin as the user configured it. Bundled plugins stay loaded exactly when they would have been.
 */
export function withJsonlOutput(loaded: LoadedConfig, file: string): LoadedConfig {
  const config = loaded.config;
  const bundledWouldLoad =
    config.bundled_plugins === 'all' || (config.bundled_plugins === 'auto' && config.plugins.length === 0);
  const plugins: PluginConfigEntry[] = [
    ...config.plugins.filter((entry) => specifierOf(entry) !== JSONL_SINK_PLUGIN),
    { plugin: JSONL_SINK_PLUGIN, options: { path: file } },
  ];
  return {
    ...loaded,
    config: { ...config, plugins, bundled_plugins: bundledWouldLoad ? 'all' : config.bundled_plugins },
  };
}

/** Sinks that print to the terminal: left out with `--json`, so stdout is one JSON document. */
const TERMINAL_SINKS = new Set(['console']);

/** Every registered sink but the terminal ones (`replay --json` without `--output`). */
export function terminalFreeSinks(host: PluginHost): string[] {
  return host.registries.sinks
    .values()
    .map((sink) => sink.name)
    .filter((name) => !TERMINAL_SINKS.has(name));
}
