import { and, desc, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { Assessment, GateVerdict, ToolCallEvent, ToolCallResult } from '../contracts/events.js';
import type { GovernanceRecord } from '../contracts/sink.js';
import type { OutboxStore } from './outbox.js';
import { CORRELATION_WINDOW_MS, correlationKeyOf, sideOf } from './correlation.js';
import { assessments, eventAliases, events, sessions, type GovernanceOrm } from './schema.js';

/** Where an event came from: a capture file path, or `gate` for a live gate request. */
export type EventSource = string;

export interface GateDecision {
  event: ToolCallEvent;
  assessment: Assessment;
  verdict: GateVerdict;
}

/**
 * Events and their assessments. Inserting is idempotent on `event.id`: a second insert of the same
 * event changes nothing and says so. A call seen by the gate and in a capture under two ids is one
 * event (see correlation.ts): the second sighting's id becomes an alias of the first.
 * Callers group writes in `GovernanceDb.transaction`.
 */
export class RecordStore {
  // Prepared once: building and preparing a query per event dominated ingest time.
  readonly #hasEvent;
  readonly #selectEvent;
  readonly #latestAssessment;
  readonly #upsertSession;
  readonly #insertAssessment;
  readonly #complete;
  #correlation: ReturnType<RecordStore['prepareCorrelation']> | undefined;

  constructor(
    private readonly orm: GovernanceOrm,
    /** Every assessment written is enqueued here for the subscribed outbox sinks, in the same transaction. */
    private readonly outbox?: OutboxStore,
  ) {
    const p = (name: string) => sql.placeholder(name);
    this.#hasEvent = orm
      .select({ id: events.id })
      .from(events)
      .where(eq(events.id, p('id')))
      .prepare();
    const { correlationKey: _key, paired: _paired, ...eventColumns } = getTableColumns(events);
    // The columns a record has (not the correlation bookkeeping): `status` reads databases from before it.
    this.#selectEvent = orm
      .select(eventColumns)
      .from(events)
      .where(eq(events.id, p('id')))
      .prepare();
    this.#latestAssessment = orm
      .select()
      .from(assessments)
      .where(eq(assessments.eventId, p('id')))
      .orderBy(desc(assessments.id))
      .limit(1)
      .prepare();
    this.#upsertSession = orm
      .insert(sessions)
      .values({
        framework: p('framework'),
        sessionId: p('sessionId'),
        cwd: p('cwd'),
        firstSeen: p('timestamp'),
        lastSeen: p('timestamp'),
        events: 1,
      })
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

  /**
   * Statements that use the correlation columns and the alias table, prepared on first use: a
   * database opened read-only from before them (`status`) never needs them.
   */
  private prepareCorrelation() {
    const p = (name: string) => sql.placeholder(name);
    return {
      insertEvent: this.orm
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
          correlationKey: p('correlationKey'),
        })
        .onConflictDoNothing()
        .prepare(),
      alias: this.orm
        .select({ eventId: eventAliases.eventId })
        .from(eventAliases)
        .where(eq(eventAliases.aliasId, p('id')))
        .prepare(),
      insertAlias: this.orm
        .insert(eventAliases)
        .values({ aliasId: p('aliasId'), eventId: p('eventId') })
        .onConflictDoNothing()
        .prepare(),
      candidates: this.orm
        .select({ id: events.id, timestamp: events.timestamp, source: events.source })
        .from(events)
        .where(and(eq(events.correlationKey, p('key')), eq(events.paired, 0)))
        .prepare(),
      markPaired: this.orm
        .update(events)
        .set({ paired: 1 })
        .where(eq(events.id, p('id')))
        .prepare(),
    };
  }

  private get correlation(): ReturnType<RecordStore['prepareCorrelation']> {
    this.#correlation ??= this.prepareCorrelation();
    return this.#correlation;
  }

  has(eventId: string): boolean {
    return (
      this.#hasEvent.get({ id: eventId }) !== undefined || this.correlation.alias.get({ id: eventId }) !== undefined
    );
  }

  /** The id the call is recorded under: its own, the event it is an alias of, or undefined. */
  recordedId(eventId: string): string | undefined {
    if (this.#hasEvent.get({ id: eventId })) return eventId;
    return this.correlation.alias.get({ id: eventId })?.eventId;
  }

  /**
   * The recorded event that is this call seen from the other side (gate ↔ capture): same
   * correlation key, not paired yet, nearest in time within the window. `claimed` holds ids paired
   * earlier in the same unit of work and not written yet.
   */
  correlatedId(
    event: ToolCallEvent,
    source: EventSource,
    claimed: ReadonlySet<string> = new Set(),
  ): string | undefined {
    const at = Date.parse(event.timestamp);
    if (Number.isNaN(at)) return undefined;
    let best: { id: string; distance: number } | undefined;
    for (const row of this.correlation.candidates.all({ key: correlationKeyOf(event) })) {
      if (row.id === event.id || claimed.has(row.id) || sideOf(row.source) === sideOf(source)) continue;
      const distance = Math.abs(Date.parse(row.timestamp) - at);
      if (distance <= CORRELATION_WINDOW_MS && (!best || distance < best.distance)) best = { id: row.id, distance };
    }
    return best?.id;
  }

  /** Records `aliasId` as another id of the recorded event `eventId`, which is now paired. */
  alias(aliasId: string, eventId: string): void {
    this.correlation.insertAlias.run({ aliasId, eventId });
    this.correlation.markPaired.run({ id: eventId });
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

  /**
   * Sets the result of a recorded call that has none yet (its result arrived in a later chunk); an alias id completes
   * its event.
   */
  complete(eventId: string, result: ToolCallResult): boolean {
    const id = this.recordedId(eventId) ?? eventId;
    return this.#complete.run({ id, result: JSON.stringify(result) }).changes > 0;
  }

  /**
   * A gate decision: the event (recorded once) and an assessment carrying the verdict. When the
   * call is already recorded from its transcript under another id, the verdict goes to that event.
   */
  recordGateDecision(decision: GateDecision): void {
    this.orm.transaction(() => {
      let id = this.recordedId(decision.event.id);
      if (id === undefined) {
        id = this.correlatedId(decision.event, 'gate');
        if (id !== undefined) this.alias(decision.event.id, id);
      }
      if (id === undefined) {
        this.insertEvent(decision.event, 'gate');
        id = decision.event.id;
      }
      this.insertAssessment(id, decision.assessment, 'gate', decision.verdict);
    });
  }

  private insertEvent(event: ToolCallEvent, source: EventSource): boolean {
    const inserted = this.correlation.insertEvent.run({
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
      correlationKey: correlationKeyOf(event),
    });
    if (inserted.changes === 0) return false;
    this.#upsertSession.run({
      framework: event.framework,
      sessionId: event.session_id,
      cwd: event.cwd,
      timestamp: event.timestamp,
    });
    return true;
  }

  private insertAssessment(
    eventId: string,
    assessment: Assessment,
    kind: 'ingest' | 'gate',
    verdict?: GateVerdict,
  ): void {
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
