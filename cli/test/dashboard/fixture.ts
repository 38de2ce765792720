import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GovernanceDb, type OutboxRecord } from '@agentgov/core';
import {
  generateGovernanceData,
  isolatedEnv,
  makeTempDir,
  recordGeneratedCalls,
  type GeneratedCall,
} from '@agentgov/core/testing';
import Database from 'better-sqlite3';
import { startDaemon, type Daemon } from '../support/daemon.js';

/** A home (not under /tmp only: the suite's temp root) holding a system.db of generated calls. */
export interface DashboardHome {
  root: string;
  db: string;
  env: NodeJS.ProcessEnv;
  calls: GeneratedCall[];
}

export function makeDashboardHome(calls: number, config = ''): DashboardHome {
  const root = makeTempDir('dashboard-');
  const agentgov = join(root, '.agentgov');
  mkdirSync(agentgov, { recursive: true, mode: 0o700 });
  if (config) writeFileSync(join(agentgov, 'config.yaml'), config, { mode: 0o600 });
  const db = join(agentgov, 'system.db');
  const generated = [...generateGovernanceData({ calls, days: 30, seed: 11 })];
  const governance = GovernanceDb.open(db);
  recordGeneratedCalls(governance, generated);
  governance.close();
  return { root, db, env: isolatedEnv(root), calls: generated };
}

export interface RunningDashboard {
  url: string;
  daemon: Daemon;
}

export async function startDashboard(args: string[], env: NodeJS.ProcessEnv): Promise<RunningDashboard> {
  const daemon = startDaemon(['dashboard', '--listen', '127.0.0.1:0', ...args], { env });
  const [, url] = await daemon.waitFor(/ on (http:\/\/127\.0\.0\.1:\d+)\//, 60_000);
  return { url: url!, daemon };
}

/**
 * The numbers the overview must show, counted by plain SQL written here (not the reader's): a
 * call's action is its gate decision's assessment when there is one, else its ingest assessment.
 */
export function expectedCounts(db: string, since: string, until: string, agent?: string): Record<string, number> {
  const sqlite = new Database(db, { readonly: true });
  try {
    const row = sqlite
      .prepare(
        `SELECT count(*) AS calls,
           SUM(CASE WHEN COALESCE(g.level, i.level) IN ('high', 'critical') THEN 1 ELSE 0 END) AS risky,
           SUM(CASE WHEN COALESCE(g.action, i.action) = 'allow' THEN 1 ELSE 0 END) AS allow,
           SUM(CASE WHEN COALESCE(g.action, i.action) = 'warn' THEN 1 ELSE 0 END) AS warn,
           SUM(CASE WHEN COALESCE(g.action, i.action) = 'ask' THEN 1 ELSE 0 END) AS ask,
           SUM(CASE WHEN COALESCE(g.action, i.action) = 'deny' THEN 1 ELSE 0 END) AS deny
         FROM events e
         LEFT JOIN assessments g ON g.event_id = e.id AND g.kind = 'gate'
         LEFT JOIN assessments i ON i.event_id = e.id AND i.kind = 'ingest'
         WHERE e.timestamp >= ? AND e.timestamp < ? AND (? IS NULL OR e.framework = ?)`,
      )
      .get(since, until, agent ?? null, agent ?? null) as Record<string, number>;
    return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v ?? 0]));
  } finally {
    sqlite.close();
  }
}

/**
 * What system.db recorded, as the outbox hands it to a store sink: the team store gets exactly the
 * events system.db holds (after its correlation merged sightings of one call), each assessment with its kind.
 */
export function recordedOutbox(db: string): OutboxRecord[] {
  const sqlite = new Database(db, { readonly: true });
  try {
    type Row = Record<string, string | number | null>;
    const rows = sqlite
      .prepare(
        `SELECT e.id, e.framework, e.session_id, e.timestamp, e.cwd, e.tool_name, e.canonical_tool, e.arguments,
           a.kind, a.score, a.level, a.action, a.reason_code, a.evidence, a.verdict, a.verdict_reason, a.decided_by, a.created_at
         FROM events e JOIN assessments a ON a.event_id = e.id ORDER BY a.id`,
      )
      .all() as Row[];
    return rows.map((r) => ({
      event: {
        id: String(r['id']),
        framework: String(r['framework']),
        session_id: String(r['session_id']),
        timestamp: String(r['timestamp']),
        cwd: String(r['cwd']),
        tool_name: String(r['tool_name']),
        canonical_tool: String(r['canonical_tool']) as OutboxRecord['event']['canonical_tool'],
        arguments: JSON.parse(String(r['arguments'])) as Record<string, unknown>,
      },
      assessment: {
        score: Number(r['score']),
        level: r['level'] as OutboxRecord['assessment']['level'],
        action: r['action'] as OutboxRecord['assessment']['action'],
        reason_code: String(r['reason_code']),
        evidence: JSON.parse(String(r['evidence'])) as OutboxRecord['assessment']['evidence'],
      },
      kind: r['kind'] as OutboxRecord['kind'],
      ...(r['verdict']
        ? {
            verdict: {
              decision: r['verdict'] as 'allow' | 'ask' | 'deny',
              reason: String(r['verdict_reason'] ?? ''),
              decided_by: String(r['decided_by'] ?? ''),
            },
          }
        : {}),
      assessed_at: String(r['created_at']),
    }));
  } finally {
    sqlite.close();
  }
}
