import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Assessment, GateVerdict, ToolCallEvent, ToolCallResult } from '../contracts/events.js';
import type { GovernanceRecord } from '../contracts/sink.js';
import type { OutboxStore } from './outbox.js';
import { assessments, events, sessions, type GovernanceOrm } from './schema.js';

/** Where an event came from: a capture file path, or `gate` for a live gate request. */
export type EventSource = string;

export interface GateDecision {
  event: ToolCallEvent;
  assessment: Assessment;
  verdict: GateVerdict;
}

/**
 * Events and their assessments. Inserting is idempotent on `event.id`: a second insert of the same
 * event changes nothing and says so. Callers group writes in `GovernanceDb.transaction`.
 */
export class RecordStore {
  // Prepared once: building and preparing a query per event dominated ingest time.
  readonly #hasEvent;
  readonly #selectEvent;
  readonly #latestAssessment;
  readonly #insertEvent;
  readonly #upsertSession;
  readonly #insertAssessment;
  readonly #complete;

  constructor(
    private readonly orm: GovernanceOrm,
    /** Every assessment written is enqueued here for the subscribed outbox sinks, in the same transaction. */
    private readonly outbox?: OutboxStore,
  ) {
    const p = (name: string) => sql.placeholder(name);
    this.#hasEvent = orm.select({ id: events.id }).from(events).where(eq(events.id, p('id'))).prepare();
    this.#selectEvent = orm.select().from(events).where(eq(events.id, p('id'))).prepare();
    this.#latestAssessment = orm.select().from(assessments).where(eq(assessments.eventId, p('id'))).orderBy(desc(assessments.id)).limit(1).prepare();
    this.#insertEvent = orm
      .insert(events)
      .values({
        id: p('id'),
        framework: p('framework'),
        sessionId: p('sessionId'),
        timestamp: p('timestamp'),
        cwd: p('cwd'),
        toolName: p('toolName'),
        canonicalTool: p('canonicalTool'),
        arguments: p('arguments'),
        // Raw placeholder: the json column would encode a missing result as the text 'null'.
        result: sql`${p('result')}`,
        source: p('source'),
        ingestedAt: p('ingestedAt'),
      })
      .onConflictDoNothing()
      .prepare();
    this.#upsertSession = orm
      .insert(sessions)
      .values({ framework: p('framework'), sessionId: p('sessionId'), cwd: p('cwd'), firstSeen: p('timestamp'), lastSeen: p('timestamp'), events: 1 })
      .onConflictDoUpdate({
        target: [sessions.framework, sessions.sessionId],
        set: {
          firstSeen: sql`min(${sessions.firstSeen}, excluded.first_seen)`,
          lastSeen: sql`max(${sessions.lastSeen}, excluded.last_seen)`,
          events: sql`${sessions.events} + 1`,
        },
      })
      .prepare();
    this.#insertAssessment = orm
      .insert(assessments)
      .values({
        eventId: p('eventId'),
        kind: p('kind'),
        score: p('score'),
        level: p('level'),
        action: p('action'),
        reasonCode: p('reasonCode'),
        evidence: p('evidence'),
        verdict: p('verdict'),
        verdictReason: p('verdictReason'),
        decidedBy: p('decidedBy'),
        createdAt: p('createdAt'),
      })
      .prepare();
    this.#complete = orm
      .update(events)
      // A placeholder inside raw SQL is not encoded by the column: the caller passes JSON text.
      .set({ result: sql`${p('result')}` })
      .where(and(eq(events.id, p('id')), isNull(events.result)))
      .prepare();
  }

  has(eventId: string): boolean {
    return this.#hasEvent.get({ id: eventId }) !== undefined;
  }

  /** The event with its most recent assessment, or undefined. */
  find(eventId: string): GovernanceRecord | undefined {
    const row = this.#selectEvent.get({ id: eventId });
    if (!row) return undefined;
    const a = this.#latestAssessment.get({ id: eventId });
    const event: ToolCallEvent = {
      id: row.id,
      framework: row.framework,
      session_id: row.sessionId,
      timestamp: row.timestamp,
      cwd: row.cwd,
      tool_name: row.toolName,
      canonical_tool: row.canonicalTool,
      arguments: row.arguments,
      ...(row.result ? { result: row.result } : {}),
    };
    const assessment: Assessment = a
      ? { score: a.score, level: a.level, action: a.action, reason_code: a.reasonCode, evidence: a.evidence }
      : { score: 0, level: 'low', action: 'allow', reason_code: 'not_assessed', evidence: { rules: [] } };
    return { event, assessment };
  }

  /** Records an event and its assessment; returns false (and writes nothing) when the event exists. */
  insert(record: GovernanceRecord, source: EventSource): boolean {
    if (!this.insertEvent(record.event, source)) return false;
    this.insertAssessment(record.event.id, record.assessment, 'ingest');
    return true;
  }

  /** Sets the result of a recorded call that has none yet (its result arrived in a later chunk). */
  complete(eventId: string, result: ToolCallResult): boolean {
    return this.#complete.run({ id: eventId, result: JSON.stringify(result) }).changes > 0;
  }

  /** A gate decision: the event (recorded once) and an assessment carrying the verdict. */
  recordGateDecision(decision: GateDecision): void {
    this.orm.transaction(() => {
      this.insertEvent(decision.event, 'gate');
      this.insertAssessment(decision.event.id, decision.assessment, 'gate', decision.verdict);
    });
  }

  private insertEvent(event: ToolCallEvent, source: EventSource): boolean {
    const inserted = this.#insertEvent.run({
      id: event.id,
      framework: event.framework,
      sessionId: event.session_id,
      timestamp: event.timestamp,
      cwd: event.cwd,
      toolName: event.tool_name,
      canonicalTool: event.canonical_tool,
      arguments: event.arguments,
      result: event.result ? JSON.stringify(event.result) : null,
      source,
      ingestedAt: new Date().toISOString(),
    });
    if (inserted.changes === 0) return false;
    this.#upsertSession.run({ framework: event.framework, sessionId: event.session_id, cwd: event.cwd, timestamp: event.timestamp });
    return true;
  }

  private insertAssessment(eventId: string, assessment: Assessment, kind: 'ingest' | 'gate', verdict?: GateVerdict): void {
    const inserted = this.#insertAssessment.run({
      eventId,
      kind,
      score: assessment.score,
      level: assessment.level,
      action: assessment.action,
      reasonCode: assessment.reason_code,
      evidence: assessment.evidence,
      verdict: verdict?.decision ?? null,
      verdictReason: verdict?.reason ?? null,
      decidedBy: verdict?.decided_by ?? null,
      createdAt: new Date().toISOString(),
    });
    this.outbox?.enqueueAssessment(inserted.lastInsertRowid);
  }
}
