/**
 * How a gate verdict is printed. `agentx-code`: the PreToolUse hook output the agent reads;
 * `json`: everything the gate knows (verdict, assessment, event id, or what was unavailable).
 * Node built-ins only: gate start-up path.
 */
import type { Assessment, GateVerdict } from '@agentgov/core';
import type { GateFailure } from './client.js';

export const GATE_FORMATS = ['agentx-code', 'json'] as const;
export type GateFormat = (typeof GATE_FORMATS)[number];
export type OnUnavailable = 'ask' | 'deny' | 'allow';

export interface GateOutcome {
  verdict: GateVerdict;
  event_id?: string;
  assessment?: Assessment;
  /** Present when no pipeline decided: what failed. */
  unavailable?: { code: GateFailure['failure']; message: string };
}

/** The verdict `gate.on_unavailable` gives when no pipeline decided; the reason says what failed. */
export function unavailableOutcome(failure: GateFailure, onUnavailable: OnUnavailable): GateOutcome {
  return {
    verdict: {
      decision: onUnavailable,
      reason: `agentgov gate could not get a verdict (${failure.failure}): ${failure.message}. gate.on_unavailable is '${onUnavailable}'.`,
      decided_by: 'gate.on_unavailable',
    },
    unavailable: { code: failure.failure, message: failure.message },
  };
}

export function formatOutcome(outcome: GateOutcome, format: GateFormat): string {
  if (format === 'json') return `${JSON.stringify(outcome)}\n`;
  return `${JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: outcome.verdict.decision, permissionDecisionReason: outcome.verdict.reason },
  })}\n`;
}
