import { index, integer, jsonb, pgSchema, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The team store in PostgreSQL, all in the schema `agentgov`. The SQL that creates it lives in
 * plugins/sink-postgres/migrations (applied by the sink before its first write); a change here
 * needs a new migration there.
 */
export const agentgov = pgSchema('agentgov');

/** A machine and OS user that runs agentgov: where the records came from. */
export const machines = agentgov.table('machines', {
  /** `user@hostname`. */
  id: text('id').primaryKey(),
  hostname: text('hostname').notNull(),
  osUser: text('os_user').notNull(),
  firstSeen: timestamp('first_seen', { withTimezone: true }).notNull().defaultNow(),
  lastSeen: timestamp('last_seen', { withTimezone: true }).notNull().defaultNow(),
});

/** One tool call, keyed by the stable event id: delivering it again changes nothing. */
export const events = agentgov.table(
  'events',
  {
    id: text('id').primaryKey(),
    framework: text('framework').notNull(),
    sessionId: text('session_id').notNull(),
    /** The event's own timestamp, as the capture gave it (ISO 8601). */
    timestamp: text('timestamp').notNull(),
    /** The same instant as a timestamptz, null when the capture's text is not a date. */
    occurredAt: timestamp('occurred_at', { withTimezone: true }),
    cwd: text('cwd').notNull(),
    toolName: text('tool_name').notNull(),
    canonicalTool: text('canonical_tool').notNull(),
    arguments: jsonb('arguments').notNull(),
    result: jsonb('result'),
    machineId: text('machine_id')
      .notNull()
      .references(() => machines.id),
    storedAt: timestamp('stored_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('events_session_idx').on(t.framework, t.sessionId),
    index('events_occurred_at_idx').on(t.occurredAt),
    index('events_machine_idx').on(t.machineId),
  ],
);

/**
 * An assessment of an event: `ingest` (from a capture) or `gate` (a live decision, with its verdict); one of each per
 * event.
 */
export const assessments = agentgov.table(
  'assessments',
  {
    eventId: text('event_id')
      .notNull()
      .references(() => events.id),
    kind: text('kind').notNull(),
    score: integer('score').notNull(),
    level: text('level').notNull(),
    action: text('action').notNull(),
    reasonCode: text('reason_code').notNull(),
    evidence: jsonb('evidence').notNull(),
    verdict: text('verdict'),
    verdictReason: text('verdict_reason'),
    decidedBy: text('decided_by'),
    assessedAt: timestamp('assessed_at', { withTimezone: true }).notNull(),
    machineId: text('machine_id')
      .notNull()
      .references(() => machines.id),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.kind] }),
    index('assessments_level_idx').on(t.level),
    index('assessments_assessed_at_idx').on(t.assessedAt),
  ],
);

export const storeSchema = { machines, events, assessments };
