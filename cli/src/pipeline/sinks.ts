import { AgentgovError, type PluginHost, type Sink } from '@agentgov/core';

const tapped = new WeakMap<object, Sink[]>();

/**
 * Connects registered sinks to the `emit` hook, each tap attributed to the plugin that registered
 * the sink and named after the sink (so a failure names it). Done once per host.
 */
export function tapSinks(host: PluginHost, names?: string[]): Sink[] {
  const already = tapped.get(host.hooks);
  if (already) return already;
  const entries = host.registries.sinks.entries();
  const unknown = (names ?? []).filter((n) => !entries.some((e) => e.provider.name === n));
  if (unknown.length) {
    const known = entries.map((e) => e.provider.name).join(', ') || '(none)';
    throw new AgentgovError('E_INVALID_ARGUMENT', `unknown sink(s): ${unknown.join(', ')}; registered sinks: ${known}`, { unknown });
  }
  const chosen = entries.filter((e) => !names || names.includes(e.provider.name));
  for (const { provider, plugin } of chosen) {
    host.attribution.applying(plugin, () => host.hooks.emit.tapPromise(provider.name, (record) => provider.write(record)));
  }
  const sinks = chosen.map((e) => e.provider);
  tapped.set(host.hooks, sinks);
  return sinks;
}
