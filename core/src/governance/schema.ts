import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { AssessmentEvidence, CanonicalTool, RiskAction, RiskLevel, ToolCallResult } from '../contracts/events.js';

/**
 * The governance database schema (system.db). The SQL that creates it lives in
 * core/migrations/governance; a change here needs a new migration there.
 */

/** One agent session, per framework. */
export const sessions = sqliteTable(
  'sessions',
  {
    framework: text('framework').notNull(),
    sessionId: text('session_id').notNull(),
    cwd: text('cwd').notNull(),
    firstSeen: text('first_seen').notNull(),
    lastSeen: text('last_seen').notNull(),
    events: integer('events').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.framework, t.sessionId] })],
);

/** One normalised tool call; `id` is stable, so re-ingesting never duplicates. */
export const events = sqliteTable(
  'events',
  {
    id: text('id').primaryKey(),
    framework: text('framework').notNull(),
    sessionId: text('session_id').notNull(),
    timestamp: text('timestamp').notNull(),
    cwd: text('cwd').notNull(),
    toolName: text('tool_name').notNull(),
    canonicalTool: text('canonical_tool').$type<CanonicalTool>().notNull(),
    arguments: text('arguments', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    result: text('result', { mode: 'json' }).$type<ToolCallResult>(),
    /** Capture file the event came from, or `gate` for a live gate request. */
    source: text('source').notNull(),
    ingestedAt: text('ingested_at').notNull(),
    /**
     * Framework, session, tool and canonical arguments, hashed (see correlation.ts): how a gate call
     * and the transcript record of the same call are recognised when the agent gives them no shared id.
     */
    correlationKey: text('correlation_key'),
    /** 1 once the event was paired with its sighting from the other side (gate ↔ capture). */
    paired: integer('paired').notNull().default(0),
    // Migration 0004 adds effective_score/_level/_action/_reason, kept by a trigger on assessments for
    // readers (sqlite-reader.ts). They stay out of this typed schema on purpose: the stores select whole
    // rows, and a read-only `status` of a system.db from before 0004 must not ask for them.
  },
  (t) => [
    index('events_session_idx').on(t.framework, t.sessionId),
    index('events_source_idx').on(t.source),
    index('events_correlation_idx').on(t.correlationKey),
  ],
);

/** Another id under which the same tool call was seen (a gate id for a transcript call, or the reverse). */
export const eventAliases = sqliteTable('event_aliases', {
  aliasId: text('alias_id').primaryKey(),
  eventId: text('event_id')
    .notNull()
    .references(() => events.id),
});

/** An assessment of an event; a gate decision is an assessment with a verdict. */
export const assessments = sqliteTable(
  'assessments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id),
    kind: text('kind').$type<'ingest' | 'gate'>().notNull(),
    score: integer('score').notNull(),
    level: text('level').$type<RiskLevel>().notNull(),
    action: text('action').$type<RiskAction>().notNull(),
    reasonCode: text('reason_code').notNull(),
    evidence: text('evidence', { mode: 'json' }).$type<AssessmentEvidence>().notNull(),
    verdict: text('verdict').$type<'allow' | 'deny' | 'ask'>(),
    verdictReason: text('verdict_reason'),
    decidedBy: text('decided_by'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('assessments_event_idx').on(t.eventId), index('assessments_level_idx').on(t.level)],
);

/**
 * How far each capture file has been ingested; size, inode and fingerprint detect rotation, truncation and rewrites.
 */
export const ingestOffsets = sqliteTable('ingest_offsets', {
  file: text('file').primaryKey(),
  adapter: text('adapter').notNull(),
  offset: integer('offset').notNull(),
  size: integer('size').notNull(),
  inode: integer('inode').notNull(),
  /** Lines skipped by reason in the content consumed so far (since offset 0). */
  skipped: text('skipped', { mode: 'json' }).$type<Record<string, number>>().notNull(),
  events: integer('events').notNull().default(0),
  /**
   * Hash of the bytes at the file's head and just before `offset`: another value means the file was rewritten in place.
   */
  fingerprint: text('fingerprint'),
  /** Times the stored offset was discarded, by reason (`rotated`, `truncated`, `rewritten`). */
  resets: text('resets', { mode: 'json' }).$type<Record<string, number>>().notNull().default({}),
  /** Lines skipped by reason in the contents this path held before its last reset. */
  skippedBefore: text('skipped_before', { mode: 'json' }).$type<Record<string, number>>().notNull().default({}),
  updatedAt: text('updated_at').notNull(),
});

/** The running `watch`'s gate IPC server: socket path and per-run token. */
export const gateEndpoints = sqliteTable('gate_endpoints', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  socket: text('socket').notNull(),
  token: text('token').notNull(),
  pid: integer('pid').notNull(),
  startedAt: text('started_at').notNull(),
});

/**
 * The durable outbox of the store sinks (`delivery: 'outbox'`): one row per assessment still to be
 * delivered to a sink, written in the transaction that records it and deleted when the sink
 * acknowledges it. `seq` is the delivery order.
 */
export const sinkOutbox = sqliteTable(
  'sink_outbox',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    sink: text('sink').notNull(),
    assessmentId: integer('assessment_id')
      .notNull()
      .references(() => assessments.id),
    enqueuedAt: text('enqueued_at').notNull(),
  },
  (t) => [
    uniqueIndex('sink_outbox_sink_assessment_idx').on(t.sink, t.assessmentId),
    index('sink_outbox_sink_seq_idx').on(t.sink, t.seq),
  ],
);

/**
 * Delivery state of each outbox sink: totals, the current run of failures and the last error (redacted by the sink).
 */
export const sinkState = sqliteTable('sink_state', {
  sink: text('sink').primaryKey(),
  delivered: integer('delivered').notNull().default(0),
  rejected: integer('rejected').notNull().default(0),
  lastDeliveredAt: text('last_delivered_at'),
  /** Consecutive failed attempts; 0 after a success. */
  failures: integer('failures').notNull().default(0),
  lastError: text('last_error'),
  lastErrorAt: text('last_error_at'),
  lastRejection: text('last_rejection'),
  nextAttemptAt: text('next_attempt_at'),
  updatedAt: text('updated_at').notNull(),
});

export const governanceSchema = { sessions, events, assessments, ingestOffsets, gateEndpoints, sinkOutbox, sinkState };

/** The typed drizzle handle over the governance schema; the stores take it. */
export type GovernanceOrm = BetterSQLite3Database<typeof governanceSchema>;
