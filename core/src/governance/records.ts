import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Assessment, GateVerdict, ToolCallEvent, ToolCallResult } from '../contracts/events.js';
import type { GovernanceRecord } from '../contracts/sink.js';
import type { GovernanceOrm } from './db.js';
import { assessments, events, sessions } from './schema.js';

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
  constructor(private readonly orm: GovernanceOrm) {}

  has(eventId: string): boolean {
    return this.orm.select({ id: events.id }).from(events).where(eq(events.id, eventId)).get() !== undefined;
  }

  /** The event with its most recent assessment, or undefined. */
  find(eventId: string): GovernanceRecord | undefined {
    const row = this.orm.select().from(events).where(eq(events.id, eventId)).get();
    if (!row) return undefined;
    const a = this.orm.select().from(assessments).where(eq(assessments.eventId, eventId)).orderBy(desc(assessments.id)).limit(1).get();
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
    const done = this.orm
      .update(events)
      .set({ result })
      .where(and(eq(events.id, eventId), isNull(events.result)))
      .run();
    return done.changes > 0;
  }

  /** A gate decision: the event (recorded once) and an assessment carrying the verdict. */
  recordGateDecision(decision: GateDecision): void {
    this.orm.transaction(() => {
      this.insertEvent(decision.event, 'gate');
      this.insertAssessment(decision.event.id, decision.assessment, 'gate', decision.verdict);
    });
  }

  private insertEvent(event: ToolCallEvent, source: EventSource): boolean {
    const now = new Date().toISOString();
    const inserted = this.orm
      .insert(events)
      .values({
        id: event.id,
        framework: event.framework,
        sessionId: event.session_id,
        timestamp: event.timestamp,
        cwd: event.cwd,
        toolName: event.tool_name,
        canonicalTool: event.canonical_tool,
        arguments: event.arguments,
        result: event.result ?? null,
        source,
        ingestedAt: now,
      })
      .onConflictDoNothing()
      .run();
    if (inserted.changes === 0) return false;
    this.orm
      .insert(sessions)
      .values({ framework: event.framework, sessionId: event.session_id, cwd: event.cwd, firstSeen: event.timestamp, lastSeen: event.timestamp, events: 1 })
      .onConflictDoUpdate({
        target: [sessions.framework, sessions.sessionId],
        set: {
          firstSeen: sql`min(${sessions.firstSeen}, excluded.first_seen)`,
          lastSeen: sql`max(${sessions.lastSeen}, excluded.last_seen)`,
          events: sql`${sessions.events} + 1`,
        },
      })
      .run();
    return true;
  }

  private insertAssessment(eventId: string, assessment: Assessment, kind: 'ingest' | 'gate', verdict?: GateVerdict): void {
    this.orm
      .insert(assessments)
      .values({
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
      })
      .run();
  }
}
