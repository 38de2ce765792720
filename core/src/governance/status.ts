import { count, desc, eq, inArray } from 'drizzle-orm';
import type { RiskAction, RiskLevel } from '../contracts/events.js';
import type Database from 'better-sqlite3';
import { readSinkLag, type SinkLag } from './outbox.js';
import { assessments, events, gateEndpoints, ingestOffsets, sessions, type GovernanceOrm } from './schema.js';

export interface HighRiskCall {
  event_id: string;
  timestamp: string;
  session_id: string;
  framework: string;
  tool_name: string;
  score: number;
  level: RiskLevel;
  action: RiskAction;
  reason_code: string;
  /** The shell command, path or URL the call was about, when it has one. */
  subject: string | null;
  verdict: string | null;
}

export interface CaptureIngest {
  file: string;
  adapter: string;
  offset: number;
  events: number;
  /** Lines skipped by reason in everything read from this path, contents before a reset included. */
  skipped: Record<string, number>;
  /** Times the file was read again from the start, by reason (`rotated`, `truncated`, `rewritten`). */
  resets: Record<string, number>;
  last_ingest: string;
}

/** What `status` shows: a summary of system.db. */
export interface GovernanceStatus {
  db: string;
  sessions: number;
  events: number;
  assessments: {
    total: number;
    by_level: Record<RiskLevel, number>;
    by_action: Record<RiskAction, number>;
    gate_decisions: number;
  };
  recent_high_risk: HighRiskCall[];
  captures: CaptureIngest[];
  gate_endpoint: { socket: string; pid: number; started_at: string } | null;
  /** Each outbox sink's lag and last error. */
  sinks: SinkLag[];
}

const SUBJECT_KEYS = ['command', 'file_path', 'path', 'url', 'pattern'];

function subjectOf(args: Record<string, unknown>): string | null {
  for (const key of SUBJECT_KEYS) if (typeof args[key] === 'string') return args[key];
  return null;
}

function mergeCounts(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out = { ...a };
  for (const [reason, n] of Object.entries(b)) out[reason] = (out[reason] ?? 0) + n;
  return out;
}

export function readStatus(
  orm: GovernanceOrm,
  sqlite: Database.Database,
  path: string,
  recentLimit: number,
): GovernanceStatus {
  const byLevel: Record<RiskLevel, number> = { low: 0, medium: 0, high: 0, critical: 0 };
  for (const row of orm
    .select({ key: assessments.level, n: count() })
    .from(assessments)
    .groupBy(assessments.level)
    .all())
    byLevel[row.key] = row.n;
  const byAction: Record<RiskAction, number> = { allow: 0, warn: 0, ask: 0, deny: 0 };
  for (const row of orm
    .select({ key: assessments.action, n: count() })
    .from(assessments)
    .groupBy(assessments.action)
    .all())
    byAction[row.key] = row.n;
  const total = Object.values(byLevel).reduce((a, b) => a + b, 0);
  const gateDecisions = orm.select({ n: count() }).from(assessments).where(eq(assessments.kind, 'gate')).get()?.n ?? 0;
  const recent = orm
    // The event columns named: a database from before the correlation columns is read as well.
    .select({
      a: assessments,
      e: {
        id: events.id,
        timestamp: events.timestamp,
        sessionId: events.sessionId,
        framework: events.framework,
        toolName: events.toolName,
        arguments: events.arguments,
      },
    })
    .from(assessments)
    .innerJoin(events, eq(events.id, assessments.eventId))
    .where(inArray(assessments.level, ['high', 'critical']))
    .orderBy(desc(events.timestamp), desc(assessments.id))
    .limit(recentLimit)
    .all();
  const endpoint = orm.select().from(gateEndpoints).orderBy(desc(gateEndpoints.id)).limit(1).get();
  return {
    db: path,
    sessions: orm.select({ n: count() }).from(sessions).get()?.n ?? 0,
    events: orm.select({ n: count() }).from(events).get()?.n ?? 0,
    assessments: { total, by_level: byLevel, by_action: byAction, gate_decisions: gateDecisions },
    recent_high_risk: recent.map(({ a, e }) => ({
      event_id: e.id,
      timestamp: e.timestamp,
      session_id: e.sessionId,
      framework: e.framework,
      tool_name: e.toolName,
      score: a.score,
      level: a.level,
      action: a.action,
      reason_code: a.reasonCode,
      subject: subjectOf(e.arguments),
      verdict: a.verdict,
    })),
    captures: orm
      .select()
      .from(ingestOffsets)
      .orderBy(desc(ingestOffsets.updatedAt))
      .all()
      .map((o) => ({
        file: o.file,
        adapter: o.adapter,
        offset: o.offset,
        events: o.events,
        skipped: mergeCounts(o.skippedBefore, o.skipped),
        resets: o.resets,
        last_ingest: o.updatedAt,
      })),
    gate_endpoint: endpoint ? { socket: endpoint.socket, pid: endpoint.pid, started_at: endpoint.startedAt } : null,
    sinks: readSinkLag(sqlite),
  };
}
