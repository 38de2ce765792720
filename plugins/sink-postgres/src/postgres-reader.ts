import { sql, type SQL } from 'drizzle-orm';
import { JOINED_EFFECTIVE, SqlGovernanceReader, type GovernanceReader } from '@agentgov/core';
import { describeFailure, poolConfig, redactUrl, type ConnectionOptions } from './connection.js';

/**
 * A GovernanceReader over the team store. Its connections are read-only sessions
 * (`default_transaction_read_only`), and it never migrates: it writes nothing, and a database the
 * sink has not written to yet answers with PostgreSQL's own "does not exist" error, URL redacted.
 */
export async function openPostgresReader(options: ConnectionOptions, baseDir: string): Promise<GovernanceReader> {
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const config = poolConfig(options, baseDir);
  const pool = new pg.Pool({
    ...config,
    options: [config.options, '-c default_transaction_read_only=on'].filter(Boolean).join(' '),
  });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzle(pool);
  return new SqlGovernanceReader(
    `postgres ${redactUrl(options.url)}`,
    {
      events: sql.raw('agentgov.events'),
      assessments: sql.raw('agentgov.assessments'),
      assessedAt: sql`to_char(a.assessed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      argumentsText: sql`e.arguments::text`,
      effective: JOINED_EFFECTIVE(sql.raw('agentgov.assessments')),
      like: sql`ILIKE`,
      ruleHits: {
        from: sql`jsonb_array_elements(
          CASE WHEN jsonb_typeof(c.evidence->'rules') = 'array' THEN c.evidence->'rules' ELSE '[]'::jsonb END
        ) r`,
        ruleId: sql`r.value->>'rule_id'`,
      },
      async run<T>(query: SQL): Promise<T[]> {
        try {
          return (await db.execute(query)).rows as T[];
        } catch (error) {
          throw new Error(describeFailure(error, options.url), { cause: error });
        }
      },
    },
    () => pool.end().catch(() => undefined),
  );
}
