import type { AssessmentEvidence, RiskAction, RiskLevel, ToolCallResult } from './events.js';

export type { RiskAction, RiskLevel };

/**
 * Read-only questions about recorded tool calls, answered the same way over system.db and over a
 * team store (PostgreSQL): what `agentgov dashboard` and `status --by` show. A call's assessment is
 * its gate decision when the gate decided it, else its ingest assessment. "Risky" means level
 * `high` or `critical`. Times are ISO 8601 strings compared as the events recorded them.
 */
export interface CallFilter {
  /** Calls at or after this instant. */
  since?: string;
  /** Calls before this instant. */
  until?: string;
  /** Frameworks (agents), any of. */
  agents?: string[];
  /** Working directory of the call (the project), exactly. */
  project?: string;
  levels?: RiskLevel[];
  actions?: RiskAction[];
  /** Reason code, exactly. */
  reason?: string;
  /** Free text over the call's arguments (commands, paths, URLs), case-insensitive. */
  text?: string;
}

export interface ActionCounts {
  allow: number;
  warn: number;
  ask: number;
  deny: number;
}

export interface CallCounts extends ActionCounts {
  calls: number;
  risky: number;
}

export interface DayCounts extends CallCounts {
  /** `YYYY-MM-DD`, from the call's timestamp. */
  day: string;
}

export interface KeyCounts extends CallCounts {
  key: string;
}

export interface Overview {
  totals: CallCounts;
  per_day: DayCounts[];
  by_agent: KeyCounts[];
  by_project: KeyCounts[];
  /** Reason codes of calls that were not plainly allowed, most frequent first. */
  top_reasons: KeyCounts[];
  /** Rules that fired, by calls they fired on, most frequent first. */
  top_rules: { rule_id: string; calls: number }[];
}

export interface SessionSummary {
  framework: string;
  session_id: string;
  project: string;
  first_call: string;
  last_call: string;
  calls: number;
  risky: number;
  /** Calls asked or denied. */
  blocked: number;
  max_score: number;
}

export interface CallSummary {
  id: string;
  timestamp: string;
  framework: string;
  session_id: string;
  project: string;
  tool_name: string;
  canonical_tool: string;
  /** The command, path, URL or pattern the call was about, when it has one. */
  subject: string | null;
  score: number;
  level: RiskLevel;
  action: RiskAction;
  reason_code: string;
  /** The gate's decision, when the gate decided the call live. */
  verdict: 'allow' | 'ask' | 'deny' | null;
}

export interface AssessmentRecord {
  kind: 'ingest' | 'gate';
  score: number;
  level: RiskLevel;
  action: RiskAction;
  reason_code: string;
  evidence: AssessmentEvidence;
  verdict: 'allow' | 'ask' | 'deny' | null;
  verdict_reason: string | null;
  decided_by: string | null;
  assessed_at: string;
}

export interface CallEvidence extends CallSummary {
  arguments: Record<string, unknown>;
  result: ToolCallResult | null;
  /** Every recorded assessment of the call, the gate's first. */
  assessments: AssessmentRecord[];
}

export interface Page {
  offset: number;
  limit: number;
}

export interface Facets {
  agents: string[];
  projects: string[];
  reasons: string[];
  /** Earliest and latest call timestamps, null when nothing is recorded. */
  first_call: string | null;
  last_call: string | null;
}

/** A read-only view of recorded calls. Implementations never write. */
export interface GovernanceReader {
  /** Where the answers come from, for people (`system.db /path`, `postgres postgres://u:***@h/db`). */
  readonly source: string;
  overview(filter: CallFilter): Promise<Overview>;
  sessions(filter: CallFilter, page: Page): Promise<{ total: number; rows: SessionSummary[] }>;
  /** One session's calls in time order, or null when there is no such session. */
  session(
    framework: string,
    sessionId: string,
    page: Page,
  ): Promise<{ session: SessionSummary; total: number; calls: CallSummary[] } | null>;
  call(id: string): Promise<CallEvidence | null>;
  facets(): Promise<Facets>;
  close(): Promise<void>;
}
