/**
 * The governance event model: one tool call, normalised from any framework.
 * `id` is stable (framework + session + tool-call id) so re-ingesting a capture never duplicates.
 */
export type CanonicalTool = 'shell' | 'read' | 'write' | 'edit' | 'search' | 'fetch' | 'mcp' | 'other';

export interface ToolCallResult {
  content?: string;
  is_error?: boolean;
  timestamp?: string;
}

export interface ToolCallEvent {
  id: string;
  framework: string;
  session_id: string;
  timestamp: string;
  cwd: string;
  tool_name: string;
  canonical_tool: CanonicalTool;
  arguments: Record<string, unknown>;
  result?: ToolCallResult;
}

export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';
export type RiskAction = 'allow' | 'warn' | 'ask' | 'deny';

/** One rule that matched, with what it matched on. */
export interface RuleHit {
  rule_id: string;
  score: number;
  reason_code: string;
  action?: RiskAction;
  /** The parsed command or path that triggered the rule. */
  subject?: string;
}

/** A change to the score made by an `assess` tap; lowering requires a reason. */
export interface ScoreAdjustment {
  by: string;
  from: number;
  to: number;
  reason: string;
}

export interface AssessmentEvidence {
  rules: RuleHit[];
  commands?: unknown[];
  paths?: string[];
  factors?: string[];
  adjustments?: ScoreAdjustment[];
  [key: string]: unknown;
}

export interface Assessment {
  score: number;
  level: RiskLevel;
  action: RiskAction;
  reason_code: string;
  evidence: AssessmentEvidence;
}

export interface GateVerdict {
  decision: 'allow' | 'deny' | 'ask';
  reason: string;
  /** Name of the plugin (or policy) that decided. */
  decided_by: string;
}
