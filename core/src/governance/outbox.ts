import type Database from 'better-sqlite3';
import type { OutboxRecord } from '../contracts/sink.js';
import type { AssessmentEvidence, CanonicalTool, GateVerdict, RiskAction, RiskLevel } from '../contracts/events.js';

/** One outbox row with the record it stands for. */
export interface PendingRecord {
  seq: number;
  record: OutboxRecord;
}

/** What `status` shows for an outbox sink: how far behind it is and what went wrong last. */
export interface SinkLag {
  sink: string;
  /** Records waiting in the outbox. */
  pending: number;
  /** When the oldest waiting record was enqueued, or null when none waits. */
  oldest_pending_at: string | null;
  /** Seconds between the oldest waiting record's enqueueing and now (0 when none waits). */
  lag_seconds: number;
  delivered: number;
  /** Records the store refused for good (bad data): counted, not retried. */
  rejected: number;
  last_delivered_at: string | null;
  /** Consecutive failed attempts; 0 once a delivery succeeds. */
  failures: number;
  last_error: string | null;
  last_error_at: string | null;
  last_rejection: string | null;
  next_attempt_at: string | null;
}

interface PendingRow {
  seq: number;
  kind: 'ingest' | 'gate';
  score: number;
  level: RiskLevel;
  action: RiskAction;
  reason_code: string;
  evidence: string;
  verdict: GateVerdict['decision'] | null;
  verdict_reason: string | null;
  decided_by: string | null;
  created_at: string;
  id: string;
  framework: string;
  session_id: string;
  timestamp: string;
  cwd: string;
  tool_name: string;
  canonical_tool: CanonicalTool;
  arguments: string;
  result: string | null;
}

function toPending(row: PendingRow): PendingRecord {
  const record: OutboxRecord = {
    kind: row.kind,
    assessed_at: row.created_at,
    event: {
      id: row.id,
      framework: row.framework,
      session_id: row.session_id,
      timestamp: row.timestamp,
      cwd: row.cwd,
      tool_name: row.tool_name,
      canonical_tool: row.canonical_tool,
      arguments: JSON.parse(row.arguments) as Record<string, unknown>,
      ...(row.result ? { result: JSON.parse(row.result) as NonNullable<OutboxRecord['event']['result']> } : {}),
    },
    assessment: {
      score: row.score,
      level: row.level,
      action: row.action,
      reason_code: row.reason_code,
      evidence: JSON.parse(row.evidence) as AssessmentEvidence,
    },
  };
  if (row.verdict)
    record.verdict = { decision: row.verdict, reason: row.verdict_reason ?? '', decided_by: row.decided_by ?? '' };
  return { seq: row.seq, record };
}

function prepareStatements(sqlite: Database.Database) {
  return {
    enqueue: sqlite.prepare('INSERT OR IGNORE INTO sink_outbox (sink, assessment_id, enqueued_at) VALUES (?, ?, ?)'),
    enqueueLatest: sqlite.prepare(
      'INSERT OR IGNORE INTO sink_outbox (sink, assessment_id, enqueued_at) SELECT ' +
        '?, max(id), ? FROM assessments WHERE event_id = ? HAVING max(id) IS NOT ' +
        'NULL',
    ),
    pending: sqlite.prepare(
      `SELECT o.seq, a.kind, a.score, a.level, a.action, a.reason_code, a.evidence, ` +
        `a.verdict, a.verdict_reason, a.decided_by, a.created_at,
              e.id, e.framework, e.session_id, e.timestamp, e.cwd, e.tool_name, ` +
        `e.canonical_tool, e.arguments, e.result
         FROM sink_outbox o JOIN assessments a ON a.id = o.assessment_id ` +
        `JOIN events e ON e.id = a.event_id
        WHERE o.sink = ? ORDER BY o.seq LIMIT ?`,
    ),
    remove: sqlite.prepare('DELETE FROM sink_outbox WHERE sink = ? AND seq = ?'),
    touch: sqlite.prepare('INSERT OR IGNORE INTO sink_state (sink, updated_at) VALUES (?, ?)'),
    delivered: sqlite.prepare(
      `UPDATE sink_state SET delivered = delivered + ?, rejected = rejected + ?, ` +
        `last_delivered_at = ?, failures = 0, next_attempt_at = NULL,
              last_rejection = coalesce(?, last_rejection), updated_at = ` +
        `? WHERE sink = ?`,
    ),
    failed: sqlite.prepare(
      'UPDATE sink_state SET failures = failures + 1, last_error = ?, last_error_at ' +
        '= ?, next_attempt_at = ?, updated_at = ? WHERE sink = ?',
    ),
    count: sqlite.prepare('SELECT count(*) FROM sink_outbox WHERE sink = ?').pluck(),
  };
}

/**
 * The durable outbox of the store sinks in system.db. The pipeline subscribes its outbox sinks;
 * from then on every assessment the record store writes is enqueued for each of them in the same
 * transaction, so a crash can never record an event that a store sink will not get. Delivery
 * takes rows in `seq` order and deletes them only once the sink acknowledged them.
 */
export class OutboxStore {
  #sinks: readonly string[] = [];
  #prepared: ReturnType<typeof prepareStatements> | undefined;

  constructor(private readonly sqlite: Database.Database) {}

  // Prepared on first use: a read-only open of a system.db older than the outbox must still work.
  get #s(): ReturnType<typeof prepareStatements> {
    this.#prepared ??= prepareStatements(this.sqlite);
    return this.#prepared;
  }

  /** The outbox sinks that receive every assessment recorded from now on (this process only). */
  subscribe(sinks: readonly string[]): void {
    this.#sinks = [...sinks];
    const now = new Date().toISOString();
    for (const sink of sinks) this.#s.touch.run(sink, now);
  }

  get subscribed(): readonly string[] {
    return this.#sinks;
  }

  /** Enqueues one recorded assessment for every subscribed sink; called inside the recording transaction. */
  enqueueAssessment(assessmentId: number | bigint): void {
    if (!this.#sinks.length) return;
    const now = new Date().toISOString();
    for (const sink of this.#sinks) this.#s.enqueue.run(sink, assessmentId, now);
  }

  /**
   * Enqueues the latest assessment of a recorded event for one sink, unless it is already waiting
   * (a replay re-emitting what system.db already holds); returns whether a row was added.
   */
  enqueueLatest(sink: string, eventId: string): boolean {
    return this.#s.enqueueLatest.run(sink, new Date().toISOString(), eventId).changes > 0;
  }

  /** The next records waiting for `sink`, oldest first. */
  pending(sink: string, limit: number): PendingRecord[] {
    return (this.#s.pending.all(sink, limit) as PendingRow[]).map(toPending);
  }

  /** A batch the sink acknowledged: its rows leave the outbox and count as delivered (or rejected). */
  acknowledge(sink: string, seqs: readonly number[], rejected: readonly { seq: number; reason: string }[] = []): void {
    const now = new Date().toISOString();
    this.sqlite.transaction(() => {
      for (const seq of seqs) this.#s.remove.run(sink, seq);
      const lastRejection = rejected.length
        ? `${rejected.length} record(s) at ${now}: ${rejected[0]?.reason ?? ''}`
        : null;
      this.#s.touch.run(sink, now);
      this.#s.delivered.run(seqs.length - rejected.length, rejected.length, now, lastRejection, now, sink);
    })();
  }

  /** A failed attempt: the rows stay; the (already redacted) error and the next attempt are kept for `status`. */
  failed(sink: string, message: string, nextAttemptAt: Date): void {
    const now = new Date().toISOString();
    this.#s.touch.run(sink, now);
    this.#s.failed.run(message, now, nextAttemptAt.toISOString(), now, sink);
  }

  /** Records waiting for `sink`. */
  count(sink: string): number {
    return this.#s.count.get(sink) as number;
  }

  lag(now = new Date()): SinkLag[] {
    return readSinkLag(this.sqlite, now);
  }
}

interface StateRow {
  sink: string;
  delivered: number;
  rejected: number;
  last_delivered_at: string | null;
  failures: number;
  last_error: string | null;
  last_error_at: string | null;
  last_rejection: string | null;
  next_attempt_at: string | null;
}

/** Every outbox sink's lag and last error; empty for a system.db older than the outbox. */
export function readSinkLag(sqlite: Database.Database, now = new Date()): SinkLag[] {
  const hasOutbox = sqlite.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sink_state'`).get();
  if (!hasOutbox) return [];
  const states = sqlite.prepare('SELECT * FROM sink_state ORDER BY sink').all() as StateRow[];
  const waiting = new Map(
    (
      sqlite.prepare('SELECT sink, count(*) AS n, min(enqueued_at) AS oldest FROM sink_outbox GROUP BY sink').all() as {
        sink: string;
        n: number;
        oldest: string;
      }[]
    ).map((r) => [r.sink, r]),
  );
  const names = [...new Set([...states.map((s) => s.sink), ...waiting.keys()])].sort();
  return names.map((sink) => {
    const state = states.find((s) => s.sink === sink);
    const w = waiting.get(sink);
    return {
      sink,
      pending: w?.n ?? 0,
      oldest_pending_at: w?.oldest ?? null,
      lag_seconds: w ? Math.max(0, Math.round((now.getTime() - Date.parse(w.oldest)) / 1000)) : 0,
      delivered: state?.delivered ?? 0,
      rejected: state?.rejected ?? 0,
      last_delivered_at: state?.last_delivered_at ?? null,
      failures: state?.failures ?? 0,
      last_error: state?.last_error ?? null,
      last_error_at: state?.last_error_at ?? null,
      last_rejection: state?.last_rejection ?? null,
      next_attempt_at: state?.next_attempt_at ?? null,
    };
  });
}
