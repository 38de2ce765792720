import {
  AgentgovError,
  isOutboxSink,
  OutboxDelivery,
  type GovernanceDb,
  type Logger,
  type OutboxSink,
  type PluginHost,
  type Sink,
} from '@agentgov/core';

/** The sinks a pipeline emits to, and the delivery loop of its outbox sinks. */
export interface ConnectedSinks {
  sinks: Sink[];
  outboxSinks: OutboxSink[];
  delivery: OutboxDelivery;
}

const connected = new WeakMap<object, ConnectedSinks>();

/**
 * Connects registered sinks to the `emit` hook, each tap attributed to the plugin that registered
 * the sink and named after the sink (so a failure names it). A direct sink's tap writes the
 * record; an outbox sink is subscribed to system.db's outbox (every assessment recorded from now
 * on is enqueued in its recording transaction) and its tap only re-enqueues a record system.db
 * already held (a replay) and wakes the delivery loop. Done once per host.
 */
export function connectSinks(host: PluginHost, db: GovernanceDb, logger: Logger, names?: string[]): ConnectedSinks {
  const already = connected.get(host.hooks);
  if (already) return already;
  const entries = host.registries.sinks.entries();
  const unknown = (names ?? []).filter((n) => !entries.some((e) => e.provider.name === n));
  if (unknown.length) {
    const known = entries.map((e) => e.provider.name).join(', ') || '(none)';
    throw new AgentgovError(
      'E_INVALID_ARGUMENT',
      `unknown sink(s): ${unknown.join(', ')}; registered sinks: ${known}`,
      { unknown },
    );
  }
  const chosen = entries.filter((e) => !names || names.includes(e.provider.name));
  const outboxSinks = chosen.map((e) => e.provider).filter(isOutboxSink);
  db.outbox.subscribe(outboxSinks.map((s) => s.name));
  const delivery = new OutboxDelivery(db.outbox, outboxSinks, { logger });
  for (const { provider, plugin } of chosen) {
    const write = isOutboxSink(provider)
      ? async (record: { event: { id: string } }) => {
          db.outbox.enqueueLatest(provider.name, record.event.id);
          delivery.nudge();
        }
      : (record: Parameters<Sink['write']>[0]) => provider.write(record);
    host.attribution.applying(plugin, () => host.hooks.emit.tapPromise(provider.name, write));
  }
  delivery.start();
  const result = { sinks: chosen.map((e) => e.provider), outboxSinks, delivery };
  connected.set(host.hooks, result);
  return result;
}
