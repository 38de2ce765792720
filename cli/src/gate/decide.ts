/**
 * A gate decision, as `watch` makes it for each request: the tool call becomes an event, the
 * pipeline assesses it, the `gate` bail hook may decide (first verdict wins: a policy that denies),
 * otherwise the verdict follows the assessment's action. The decision is recorded (event,
 * assessment, verdict) before the answer goes back and emitted to the sinks right after.
 */
import type { Assessment, GateVerdict, GovernanceRecord, RiskAction, ToolCallEvent } from '@agentgov/core';
import type { GateInput } from './input.js';
import type { GateDecision } from './protocol.js';
import { toolCallEvent } from './tool-event.js';

export interface GateDeciderDeps {
  /** Assess without recording (the pipeline's `assess`). */
  assess(event: ToolCallEvent): Promise<Assessment>;
  /** The `gate` bail hook: a verdict, or undefined for "no opinion". */
  gateHook(event: ToolCallEvent, assessment: Assessment): Promise<GateVerdict | undefined>;
  /** Records the decision (system.db). */
  record(decision: { event: ToolCallEvent; assessment: Assessment; verdict: GateVerdict }): void;
  /** Emits the record to the sinks; failures are the emitter's to count and report. */
  emit(record: GovernanceRecord): Promise<unknown>;
  /** Working directory of a request that names none. */
  defaultCwd: string;
  /**
   * The client's deadline (the `gate.timeout_ms` watch registered) and what it answers after it
   * (`gate.on_unavailable`): a verdict that comes too late is recorded as what the agent got.
   */
  timeout?: { ms: number; onUnavailable: GateVerdict['decision'] };
}

/** What the server knows about the client while deciding (gate/server.ts). */
export interface DecideContext {
  receivedAt: number;
  clientGone(): boolean;
}

const DECISION_OF_ACTION: Record<RiskAction, GateVerdict['decision']> = {
  allow: 'allow',
  warn: 'allow',
  ask: 'ask',
  deny: 'deny',
};

/** The verdict the assessment asks for when no `gate` tap decided; the reason carries the evidence. */
export function verdictFromAssessment(assessment: Assessment): GateVerdict {
  const bySubject = new Map<string, string[]>();
  for (const hit of assessment.evidence.rules)
    bySubject.set(hit.subject ?? '', [...(bySubject.get(hit.subject ?? '') ?? []), hit.rule_id]);
  const matches = [...bySubject].map(([subject, rules]) => `${rules.join(', ')}${subject ? ` on \`${subject}\`` : ''}`);
  const why = matches.length
    ? `; matched ${matches.slice(0, 3).join('; ')}${matches.length > 3 ? `; +${matches.length - 3} more` : ''}`
    : '';
  return {
    decision: DECISION_OF_ACTION[assessment.action],
    reason:
      `agentgov: ${assessment.action} (${assessment.reason_code}, risk ` +
      `${assessment.level} ${assessment.score}/100)` +
      `${why}`,
    decided_by: 'risk-assessment',
  };
}

export interface GateDecider {
  decide(input: GateInput, context?: DecideContext): Promise<GateDecision>;
  /** Resolves when every emission started so far has finished (shutdown waits for it). */
  drain(): Promise<void>;
}

/**
 * The decision is recorded before the answer goes back (a crash right after answering loses
 * nothing); emission to the sinks runs after it, so a slow sink never delays the agent.
 */
export function createGateDecider(deps: GateDeciderDeps): GateDecider {
  const emitting = new Set<Promise<unknown>>();
  return {
    async decide(input, context) {
      const event = toolCallEvent(input, { framework: input.framework, defaultCwd: deps.defaultCwd });
      const assessment = await deps.assess(event);
      let verdict = (await deps.gateHook(event, assessment)) ?? verdictFromAssessment(assessment);
      // system.db records the verdict the agent actually got: after the client's deadline, that is
      // gate.on_unavailable's.
      const late = context && deps.timeout ? Date.now() - context.receivedAt : 0;
      if (context && deps.timeout && (context.clientGone() || late >= deps.timeout.ms)) {
        verdict = {
          decision: deps.timeout.onUnavailable,
          reason:
            `agentgov gate could not get a verdict (timeout): the pipeline decided '` +
            `${verdict.decision}' after ${late} ms, past gate.timeout_ms (` +
            `${deps.timeout.ms} ms); the agent got gate.on_unavailable '` +
            `${deps.timeout.onUnavailable}'.`,
          decided_by: 'gate.on_unavailable',
        };
      }
      deps.record({ event, assessment, verdict });
      const emission = deps.emit({ event, assessment }).catch(() => undefined);
      emitting.add(emission);
      void emission.finally(() => emitting.delete(emission));
      return { event_id: event.id, verdict, assessment };
    },
    async drain() {
      await Promise.all([...emitting]);
    },
  };
}
