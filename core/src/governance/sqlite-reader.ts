import { sql } from 'drizzle-orm';
import type { GovernanceReader } from '../contracts/governance-reader.js';
import { GovernanceDb } from './db.js';
import { JOINED_EFFECTIVE, SqlGovernanceReader } from './reader-queries.js';

/**
 * A GovernanceReader over system.db, opened read-only: it creates, migrates and writes nothing
 * (a database from before the reader's indexes answers the same, more slowly).
 */
export function openSqliteReader(path: string): GovernanceReader {
  const db = GovernanceDb.open(path, { readonly: true });
  // A system.db from before migration 0004 has no effective columns: it is read through the joins.
  const columns = db.sqlite.prepare(`SELECT name FROM pragma_table_info('events')`).all() as { name: string }[];
  const kept = columns.some((c) => c.name === 'effective_level');
  return new SqlGovernanceReader(
    `system.db ${path}`,
    {
      events: sql.raw('events'),
      assessments: sql.raw('assessments'),
      assessedAt: sql`a.created_at`,
      argumentsText: sql`e.arguments`,
      like: sql`LIKE`,
      ruleHits: { from: sql`json_each(c.evidence, '$.rules') r`, ruleId: sql`json_extract(r.value, '$.rule_id')` },
      // Kept on the event row by migration 0004's trigger: the scans read one index and join nothing.
      effective: kept
        ? {
            joins: sql``,
            score: sql`COALESCE(e.effective_score, 0)`,
            level: sql`COALESCE(e.effective_level, 'low')`,
            action: sql`COALESCE(e.effective_action, 'allow')`,
            reason: sql`COALESCE(e.effective_reason, 'no_risk_detected')`,
          }
        : JOINED_EFFECTIVE(sql.raw('assessments')),
      run: async <T>(query: ReturnType<typeof sql>) => db.orm.all<T>(query),
    },
    async () => db.close(),
  );
}
