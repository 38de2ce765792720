import { sql } from 'drizzle-orm';
import type { GovernanceReader } from '../contracts/governance-reader.js';
import { GovernanceDb } from './db.js';
import { SqlGovernanceReader } from './reader-queries.js';

/**
 * A GovernanceReader over system.db, opened read-only: it creates, migrates and writes nothing
 * (a database from before the reader's indexes answers the same, more slowly).
 */
export function openSqliteReader(path: string): GovernanceReader {
  const db = GovernanceDb.open(path, { readonly: true });
  return new SqlGovernanceReader(
    `system.db ${path}`,
    {
      events: sql.raw('events'),
      assessments: sql.raw('assessments'),
      assessedAt: sql`a.created_at`,
      argumentsText: sql`e.arguments`,
      like: sql`LIKE`,
      ruleHits: { from: sql`json_each(c.evidence, '$.rules') r`, ruleId: sql`json_extract(r.value, '$.rule_id')` },
      run: async <T>(query: ReturnType<typeof sql>) => db.orm.all<T>(query),
    },
    async () => db.close(),
  );
}
