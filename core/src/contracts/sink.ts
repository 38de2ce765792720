import type { Assessment, GateVerdict, ToolCallEvent } from './events.js';
import type { GovernanceReader } from './governance-reader.js';

/** One event with its assessment, as recorded and emitted by the governance pipeline. */
export interface GovernanceRecord {
  event: ToolCallEvent;
  assessment: Assessment;
}

/**
 * A record as the outbox delivers it: one recorded assessment of an event. `kind` says whether
 * ingestion (`ingest`) or a live gate request (`gate`, with its verdict) produced it; an event has
 * at most one assessment of each kind, so (`event.id`, `kind`) is the key a store upserts on.
 */
export interface OutboxRecord extends GovernanceRecord {
  kind: 'ingest' | 'gate';
  verdict?: GateVerdict;
  /** When system.db recorded the assessment (ISO 8601). */
  assessed_at: string;
}

/** The result of a batch write: what the store refused for good (bad data), by position in the batch. */
export interface BatchAck {
  /** Records the store will never accept; they leave the outbox and are counted, never retried. */
  rejected?: { index: number; reason: string }[];
}

/** How the host retries a failing outbox sink: exponential backoff from `initialMs`, capped at `maxMs`. */
export interface RetryPolicy {
  initialMs: number;
  maxMs: number;
}

/**
 * A destination for governance records. A failing sink is reported and never stops the others.
 *
 * A direct sink (`delivery` unset or `direct`: `jsonl`, `console`; the original contract) gets
 * `write` for every record as it is emitted; a failure is counted and reported, the record is not
 * retried. An outbox sink is an `OutboxSink`.
 */
export interface Sink {
  name: string;
  delivery?: 'direct' | 'outbox';
  /** One record, now. The host calls it for direct sinks; an outbox sink writes the record straight to its store. */
  write(record: GovernanceRecord): Promise<void>;
  /** Writes out whatever the sink buffers; the host calls it on shutdown, before `close`. */
  flush?(): Promise<void>;
  close?(): Promise<void>;
  /**
   * A store sink that can answer read-only questions about what it stored (`agentgov dashboard`,
   * a team's view across machines) opens a reader over it. The reader writes nothing.
   */
  openReader?(): Promise<GovernanceReader>;
}

/**
 * A store sink (PostgreSQL, a warehouse, OpenTelemetry logs). The host puts every record in a
 * durable outbox in system.db, in the transaction that records the event, and delivers batches in
 * outbox order from a background loop, so a store that is down, slow or refusing never blocks
 * ingestion or the gate. `writeBatch` resolving acknowledges the batch: its records leave the
 * outbox (the `rejected` ones too, counted, never retried). Rejecting acknowledges nothing, and
 * the same batch is retried with exponential backoff. A crash between the store's commit and the
 * acknowledgement delivers the batch again, so `writeBatch` must be idempotent on
 * (`event.id`, `kind`). Its error messages end up in logs and `status`: no secrets in them.
 */
export interface OutboxSink extends Sink {
  delivery: 'outbox';
  writeBatch(records: readonly OutboxRecord[]): Promise<BatchAck | void>;
  /** Largest batch the host hands over (default 500). */
  batchSize?: number;
  retry?: Partial<RetryPolicy>;
}

export function isOutboxSink(sink: Sink): sink is OutboxSink {
  return sink.delivery === 'outbox' && typeof (sink as Partial<OutboxSink>).writeBatch === 'function';
}
