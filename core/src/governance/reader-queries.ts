import { sql, type SQL } from 'drizzle-orm';
import type {
  AssessmentRecord,
  CallCounts,
  CallEvidence,
  CallFilter,
  CallSummary,
  Facets,
  GovernanceReader,
  KeyCounts,
  Overview,
  Page,
  SessionSummary,
} from '../contracts/governance-reader.js';
import type { RiskAction, RiskLevel } from '../contracts/events.js';

/**
 * What differs between the SQL dialects a GovernanceReader runs on; everything else is one query.
 * system.db (SQLite) and the team store (PostgreSQL) have the same columns under the same names.
 */
export interface ReaderDialect {
  /** The events and assessments tables, qualified as the store names them. */
  events: SQL;
  assessments: SQL;
  /** When an assessment was recorded, as text, on the assessments alias `a`. */
  assessedAt: SQL;
  /** The JSON arguments of the events alias `e` as text, for free-text search. */
  argumentsText: SQL;
  /** Case-insensitive LIKE. */
  like: SQL;
  /** A table expression over the rule hits of `c.evidence`, and the rule id of one hit (alias `r`). */
  ruleHits: { from: SQL; ruleId: SQL };
  /**
   * A call's effective assessment (the gate's when it decided the call, else the ingest one) as
   * expressions over the events alias `e`, and the joins they need: system.db keeps it on the event
   * row (migration 0004), so its scans join nothing; another store may join its assessments.
   */
  effective: { joins: SQL; score: SQL; level: SQL; action: SQL; reason: SQL };
  run<T>(query: SQL): Promise<T[]>;
}

const RISKY: RiskLevel[] = ['high', 'critical'];
const SUBJECT_KEYS = ['command', 'file_path', 'path', 'url', 'pattern', 'query'];

const list = (values: readonly string[]): SQL =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );
const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
const json = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

function subjectOf(args: Record<string, unknown>): string | null {
  for (const key of SUBJECT_KEYS) if (typeof args[key] === 'string') return args[key];
  return null;
}

/** Escapes LIKE's wildcards, so free text matches literally (with `ESCAPE '\'`). */
const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** What a query of the calls needs beyond the filter. */
interface CallsScope {
  /** More conditions on the events alias `e` or the effective columns. */
  where?: SQL[];
  /** The effective assessment's evidence and the gate's verdict: two more joins, for few rows. */
  detail?: boolean;
}

/**
 * The calls a filter selects, one row per event with its effective assessment, as the CTE `c`.
 * Every condition goes into one WHERE, so the timestamp and session indexes narrow the scan.
 */
function callsCte(d: ReaderDialect, filter: CallFilter, scope: CallsScope = {}): SQL {
  const { effective: x } = d;
  const where: SQL[] = [...(scope.where ?? [])];
  if (filter.since) where.push(sql`e.timestamp >= ${filter.since}`);
  if (filter.until) where.push(sql`e.timestamp < ${filter.until}`);
  if (filter.agents?.length) where.push(sql`e.framework IN (${list(filter.agents)})`);
  if (filter.project) where.push(sql`e.cwd = ${filter.project}`);
  if (filter.text) where.push(sql`${d.argumentsText} ${d.like} ${likePattern(filter.text)} ESCAPE '\\'`);
  if (filter.levels?.length) where.push(sql`${x.level} IN (${list(filter.levels)})`);
  if (filter.actions?.length) where.push(sql`${x.action} IN (${list(filter.actions)})`);
  if (filter.reason) where.push(sql`${x.reason} = ${filter.reason}`);
  const whereSql = where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``;
  const detail = scope.detail
    ? {
        columns: sql`, COALESCE(dg.evidence, di.evidence) AS evidence, dg.verdict AS verdict`,
        joins: sql`LEFT JOIN ${d.assessments} dg ON dg.event_id = e.id AND dg.kind = 'gate'
          LEFT JOIN ${d.assessments} di ON di.event_id = e.id AND di.kind = 'ingest'`,
      }
    : { columns: sql``, joins: sql`` };
  return sql`WITH c AS (
      SELECT e.id, e.timestamp, e.framework, e.session_id, e.cwd, e.tool_name, e.canonical_tool, e.arguments,
        ${x.score} AS score, ${x.level} AS level, ${x.action} AS action, ${x.reason} AS reason_code ${detail.columns}
      FROM ${d.events} e ${x.joins} ${detail.joins}
      ${whereSql}
    )`;
}

/** The effective assessment from the assessments table itself (two joins per call). */
export const JOINED_EFFECTIVE = (assessments: SQL): ReaderDialect['effective'] => ({
  joins: sql`LEFT JOIN ${assessments} g ON g.event_id = e.id AND g.kind = 'gate'
    LEFT JOIN ${assessments} i ON i.event_id = e.id AND i.kind = 'ingest'`,
  score: sql`COALESCE(g.score, i.score, 0)`,
  level: sql`COALESCE(g.level, i.level, 'low')`,
  action: sql`COALESCE(g.action, i.action, 'allow')`,
  reason: sql`COALESCE(g.reason_code, i.reason_code, 'no_risk_detected')`,
});

const emptyCounts = (): CallCounts => ({ calls: 0, risky: 0, allow: 0, warn: 0, ask: 0, deny: 0 });

function add(counts: CallCounts, group: { level: RiskLevel; action: RiskAction }, n: number): void {
  counts.calls += n;
  if (RISKY.includes(group.level)) counts.risky += n;
  counts[group.action] += n;
}

type CallRow = {
  id: string;
  timestamp: string;
  framework: string;
  session_id: string;
  cwd: string;
  tool_name: string;
  canonical_tool: string;
  arguments: unknown;
  score: unknown;
  level: RiskLevel;
  action: RiskAction;
  reason_code: string;
  verdict: CallSummary['verdict'];
};

function callSummary(row: CallRow): CallSummary {
  const args = json<Record<string, unknown>>(row.arguments) ?? {};
  return {
    id: row.id,
    timestamp: row.timestamp,
    framework: row.framework,
    session_id: row.session_id,
    project: row.cwd,
    tool_name: row.tool_name,
    canonical_tool: row.canonical_tool,
    subject: subjectOf(args),
    score: num(row.score),
    level: row.level,
    action: row.action,
    reason_code: row.reason_code,
    verdict: row.verdict ?? null,
  };
}

const SESSION_COLUMNS = sql`framework, session_id, MIN(cwd) AS project, MIN("timestamp") AS first_call,
  MAX("timestamp") AS last_call, count(*) AS calls,
  SUM(CASE WHEN level IN (${list(RISKY)}) THEN 1 ELSE 0 END) AS risky,
  SUM(CASE WHEN action IN ('ask', 'deny') THEN 1 ELSE 0 END) AS blocked, MAX(score) AS max_score`;

type SessionRow = Omit<SessionSummary, 'calls' | 'risky' | 'blocked' | 'max_score'> &
  Record<'calls' | 'risky' | 'blocked' | 'max_score', unknown>;

const sessionSummary = (row: SessionRow): SessionSummary => ({
  framework: row.framework,
  session_id: row.session_id,
  project: row.project,
  first_call: row.first_call,
  last_call: row.last_call,
  calls: num(row.calls),
  risky: num(row.risky),
  blocked: num(row.blocked),
  max_score: num(row.max_score),
});

/** The GovernanceReader questions, asked in one SQL text whatever the dialect. */
export class SqlGovernanceReader implements GovernanceReader {
  constructor(
    readonly source: string,
    private readonly d: ReaderDialect,
    private readonly onClose: () => Promise<void>,
  ) {}

  /**
   * One scan of the period's calls, grouped by everything the overview breaks them down by (a few
   * thousand groups at most), then summed here per day, agent, project and reason; the rules come
   * from a second scan of only the calls that were not plainly allowed.
   */
  async overview(filter: CallFilter): Promise<Overview> {
    const c = callsCte(this.d, filter);
    type Group = {
      day: string;
      framework: string;
      cwd: string;
      reason_code: string;
      level: RiskLevel;
      action: RiskAction;
      n: unknown;
    };
    const groups = await this.d.run<Group>(
      sql`${c} SELECT substr("timestamp", 1, 10) AS day, framework, cwd, reason_code, level, action, count(*) AS n
        FROM c GROUP BY substr("timestamp", 1, 10), framework, cwd, reason_code, level, action`,
    );
    const tallies = {
      day: new Map<string, CallCounts>(),
      agent: new Map<string, CallCounts>(),
      project: new Map<string, CallCounts>(),
      reason: new Map<string, CallCounts>(),
    };
    const totals = emptyCounts();
    for (const g of groups) {
      const n = num(g.n);
      const keys = { day: g.day, agent: g.framework, project: g.cwd, reason: g.reason_code };
      for (const [dimension, key] of Object.entries(keys) as [keyof typeof tallies, string][]) {
        let counts = tallies[dimension].get(key);
        if (!counts) tallies[dimension].set(key, (counts = emptyCounts()));
        add(counts, g, n);
      }
      add(totals, g, n);
    }
    const ranked = (map: Map<string, CallCounts>, limit: number): KeyCounts[] =>
      [...map]
        .map(([key, counts]) => ({ key, ...counts }))
        .sort((a, b) => b.calls - a.calls || (a.key < b.key ? -1 : 1))
        .slice(0, limit);
    tallies.reason.delete('no_risk_detected');
    const { from, ruleId } = this.d.ruleHits;
    const { level, action } = this.d.effective;
    const flagged = callsCte(this.d, filter, {
      detail: true,
      where: [sql`(${action} <> 'allow' OR ${level} IN (${list(RISKY)}))`],
    });
    // Ranked here, not by ORDER BY: the stores' collations would break ties differently.
    const rules = (
      await this.d.run<{ rule_id: string; calls: unknown }>(
        sql`${flagged} SELECT ${ruleId} AS rule_id, count(DISTINCT c.id) AS calls FROM c, ${from} GROUP BY ${ruleId}`,
      )
    )
      .map((row) => ({ rule_id: row.rule_id, calls: num(row.calls) }))
      .sort((a, b) => b.calls - a.calls || (a.rule_id < b.rule_id ? -1 : 1))
      .slice(0, 10);
    return {
      totals,
      per_day: [...tallies.day].map(([day, counts]) => ({ day, ...counts })).sort((a, b) => (a.day < b.day ? -1 : 1)),
      by_agent: ranked(tallies.agent, 50),
      by_project: ranked(tallies.project, 20),
      top_reasons: ranked(tallies.reason, 10),
      top_rules: rules,
    };
  }

  async sessions(filter: CallFilter, page: Page): Promise<{ total: number; rows: SessionSummary[] }> {
    const c = callsCte(this.d, filter);
    // The number of sessions rides along each row (a window over the groups): one scan, not two.
    const rows = await this.d.run<SessionRow & { total: unknown }>(
      sql`${c} SELECT ${SESSION_COLUMNS}, count(*) OVER () AS total FROM c GROUP BY framework, session_id
        ORDER BY last_call DESC, framework, session_id LIMIT ${page.limit} OFFSET ${page.offset}`,
    );
    if (rows.length > 0 || page.offset === 0) return { total: num(rows[0]?.total), rows: rows.map(sessionSummary) };
    // A page past the end has no row to carry the count.
    const [total] = await this.d.run<{ n: unknown }>(
      sql`${c} SELECT count(*) AS n FROM (SELECT 1 AS one FROM c GROUP BY framework, session_id) s`,
    );
    return { total: num(total?.n), rows: [] };
  }

  async session(framework: string, sessionId: string, page: Page) {
    const c = callsCte(
      this.d,
      {},
      { detail: true, where: [sql`e.framework = ${framework}`, sql`e.session_id = ${sessionId}`] },
    );
    const [summary] = await this.d.run<SessionRow>(
      sql`${c} SELECT ${SESSION_COLUMNS} FROM c GROUP BY framework, session_id`,
    );
    if (!summary) return null;
    const calls = await this.d.run<CallRow>(
      sql`${c} SELECT * FROM c ORDER BY "timestamp", id LIMIT ${page.limit} OFFSET ${page.offset}`,
    );
    const session = sessionSummary(summary);
    return { session, total: session.calls, calls: calls.map(callSummary) };
  }

  async call(id: string): Promise<CallEvidence | null> {
    const c = callsCte(this.d, {}, { detail: true, where: [sql`e.id = ${id}`] });
    const [row] = await this.d.run<CallRow & { result: unknown }>(
      sql`${c} SELECT c.*, e.result FROM c JOIN ${this.d.events} e ON e.id = c.id`,
    );
    if (!row) return null;
    type Row = Omit<AssessmentRecord, 'score' | 'evidence'> & { score: unknown; evidence: unknown };
    const assessments = await this.d.run<Row>(
      sql`SELECT a.kind, a.score, a.level, a.action, a.reason_code, a.evidence, a.verdict, a.verdict_reason,
          a.decided_by, ${this.d.assessedAt} AS assessed_at
        FROM ${this.d.assessments} a WHERE a.event_id = ${id}
        ORDER BY CASE WHEN a.kind = 'gate' THEN 0 ELSE 1 END`,
    );
    return {
      ...callSummary(row),
      arguments: json(row.arguments) ?? {},
      result: json(row.result) ?? null,
      assessments: assessments.map((a) => ({ ...a, score: num(a.score), evidence: json(a.evidence) })),
    };
  }

  async facets(): Promise<Facets> {
    const distinct = async (column: SQL, table: SQL) =>
      (await this.d.run<{ v: string }>(sql`SELECT DISTINCT ${column} AS v FROM ${table} ORDER BY v LIMIT 500`)).map(
        (r) => r.v,
      );
    // Two scalar subqueries: each reads one end of the timestamp index, where MIN and MAX in one
    // SELECT would scan all of it.
    const [range] = await this.d.run<{ first: string | null; last: string | null }>(
      sql`SELECT (SELECT MIN("timestamp") FROM ${this.d.events}) AS first,
                 (SELECT MAX("timestamp") FROM ${this.d.events}) AS last`,
    );
    return {
      agents: await distinct(sql`framework`, this.d.events),
      projects: await distinct(sql`cwd`, this.d.events),
      reasons: await distinct(sql`reason_code`, this.d.assessments),
      first_call: range?.first ?? null,
      last_call: range?.last ?? null,
    };
  }

  close(): Promise<void> {
    return this.onClose();
  }
}
