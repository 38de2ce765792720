/**
 * What the gate's in-process decider needs from a start (assess-locally.ts): the full start
 * (assess-full.ts) and the lean ones (assess-locally.ts, assess-subset.ts) each make one.
 */
import type { Assessment, GateVerdict, ToolCallEvent } from '@agentgov/core';

/**
 * What the decider needs from a start: the assessment (engine + `assess` taps), the `gate` taps,
 * and what the project policy ignored.
 */
export interface LocalAssessor {
  assess(event: ToolCallEvent): Promise<Assessment>;
  gateHook(event: ToolCallEvent, assessment: Assessment): Promise<GateVerdict | undefined>;
  ignored: string[];
  /** The configuration's gate settings (the deadline and what answers after it). */
  gate?: { deadline_ms?: number; on_unavailable?: 'ask' | 'deny' | 'allow' } | undefined;
}
