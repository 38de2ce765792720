import type { OutboxSink, RetryPolicy } from '../contracts/sink.js';
import type { Logger } from '../logging/logger.js';
import type { OutboxStore } from './outbox.js';

export const DEFAULT_BATCH_SIZE = 500;
export const DEFAULT_RETRY: RetryPolicy = { initialMs: 1000, maxMs: 30_000 };

export interface OutboxDeliveryOptions {
  logger: Logger;
  /** Retry policy for sinks that name none. */
  retry?: Partial<RetryPolicy>;
  /** How long an idle loop waits before looking again (another process may have enqueued). */
  pollMs?: number;
}

/** What a flush left behind, per sink. */
export interface FlushOutcome {
  sink: string;
  delivered: number;
  /** Records still waiting in the outbox (the next run delivers them). */
  pending: number;
  /** Why the flush stopped early, when it did. */
  error?: string;
}

type Attempt = { outcome: 'delivered'; count: number } | { outcome: 'empty' } | { outcome: 'failed'; message: string };

/** Delay before the `failures`-th retry: exponential from `initialMs`, capped, with ±20% jitter. */
export function backoffDelay(policy: RetryPolicy, failures: number): number {
  const base = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/**
 * The attempt, or a failure when it has not settled after `ms` (it keeps running; its rows stay in the outbox until
 * acknowledged).
 */
async function withStallLimit(attempt: Promise<Attempt>, ms: number): Promise<Attempt> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<Attempt>((resolve) => {
    timer = setTimeout(
      () => resolve({ outcome: 'failed', message: `flush gave up: a batch took longer than ${ms} ms` }),
      ms,
    );
  });
  try {
    return await Promise.race([attempt, stalled]);
  } finally {
    clearTimeout(timer);
  }
}

interface SinkLoop {
  sink: OutboxSink;
  policy: RetryPolicy;
  failures: number;
  /** Serialises deliveries of one sink: the loop and a flush never send at once. */
  busy: Promise<unknown>;
  wake?: () => void;
  done?: Promise<void>;
}

/**
 * Delivers the outbox to the store sinks: one background loop per sink takes the oldest batch,
 * hands it to `writeBatch`, and deletes it from the outbox only once acknowledged. A failure keeps
 * the batch, records the error for `status`, and retries the same batch after an exponential
 * backoff; records always leave in outbox order. Nothing here ever waits on ingestion or the
 * gate, and they never wait on it.
 */
export class OutboxDelivery {
  readonly #loops: SinkLoop[];
  readonly #pollMs: number;
  #stopped = false;

  constructor(
    private readonly outbox: OutboxStore,
    sinks: readonly OutboxSink[],
    private readonly options: OutboxDeliveryOptions,
  ) {
    const fallback = { ...DEFAULT_RETRY, ...options.retry };
    this.#loops = sinks.map((sink) => ({
      sink,
      policy: { ...fallback, ...sink.retry },
      failures: 0,
      busy: Promise.resolve(),
    }));
    this.#pollMs = options.pollMs ?? 1000;
  }

  start(): void {
    for (const loop of this.#loops) loop.done ??= this.#run(loop);
  }

  /** Wakes idle loops: something was enqueued. A loop waiting out a backoff keeps waiting. */
  nudge(): void {
    for (const loop of this.#loops) loop.wake?.();
  }

  /**
   * Stops the loops and delivers what waits, now, until the outbox is empty, a delivery fails or
   * one batch takes longer than `stallMs`; a sink that keeps accepting batches is waited for.
   * What is left stays in the outbox for the next run.
   */
  async flush(stallMs = 30_000): Promise<FlushOutcome[]> {
    await this.stop();
    return Promise.all(
      this.#loops.map(async (loop) => {
        let delivered = 0;
        for (;;) {
          const attempt = await withStallLimit(this.#attempt(loop), stallMs);
          if (attempt.outcome === 'delivered') delivered += attempt.count;
          else if (attempt.outcome === 'empty') return { sink: loop.sink.name, delivered, pending: 0 };
          else
            return {
              sink: loop.sink.name,
              delivered,
              pending: this.outbox.count(loop.sink.name),
              error: attempt.message,
            };
        }
      }),
    );
  }

  /** Stops the loops after the batch in flight (nothing is lost: undelivered rows stay in the outbox). */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const loop of this.#loops) loop.wake?.();
    await Promise.all(this.#loops.map((loop) => loop.done));
  }

  async #run(loop: SinkLoop): Promise<void> {
    while (!this.#stopped) {
      const attempt = await this.#attempt(loop);
      if (attempt.outcome === 'delivered' || this.#stopped) continue;
      const wait = attempt.outcome === 'empty' ? this.#pollMs : backoffDelay(loop.policy, loop.failures);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, wait);
        // An enqueue wakes an idle loop; only stop() cuts a backoff short.
        function done(): void {
          clearTimeout(timer);
          loop.wake = undefined;
          resolve();
        }
        loop.wake = attempt.outcome === 'empty' ? done : () => (this.#stopped ? done() : undefined);
      });
    }
  }

  #attempt(loop: SinkLoop): Promise<Attempt> {
    const next = loop.busy.then(() => this.#deliverBatch(loop));
    loop.busy = next.catch(() => undefined);
    return next;
  }

  async #deliverBatch(loop: SinkLoop): Promise<Attempt> {
    const { sink } = loop;
    const batch = this.outbox.pending(sink.name, sink.batchSize ?? DEFAULT_BATCH_SIZE);
    if (!batch.length) return { outcome: 'empty' };
    let ack;
    try {
      ack = await sink.writeBatch(batch.map((p) => p.record));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      loop.failures += 1;
      const delay = backoffDelay(loop.policy, loop.failures);
      this.outbox.failed(sink.name, message, new Date(Date.now() + delay));
      const waiting = this.outbox.count(sink.name);
      if (loop.failures === 1)
        this.options.logger.warn(
          `sink '${sink.name}' failed: ${message}; ${waiting} record(s) wait in the outbox, retrying with backoff`,
        );
      else this.options.logger.debug(`sink '${sink.name}' failed (attempt ${loop.failures}): ${message}`);
      return { outcome: 'failed', message };
    }
    const rejected = (ack?.rejected ?? [])
      .filter((r) => batch[r.index])
      .map((r) => ({ seq: batch[r.index]!.seq, reason: r.reason }));
    this.outbox.acknowledge(
      sink.name,
      batch.map((p) => p.seq),
      rejected,
    );
    if (rejected.length)
      this.options.logger.warn(
        `sink '${sink.name}' refused ${rejected.length} record(s) for good: ${rejected[0]!.reason}`,
      );
    if (loop.failures > 0)
      this.options.logger.info(`sink '${sink.name}' recovered after ${loop.failures} failed attempt(s)`);
    loop.failures = 0;
    return { outcome: 'delivered', count: batch.length };
  }
}
