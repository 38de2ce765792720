import type { Assessment, ToolCallEvent } from '../contracts/events.js';
import type { GovernanceRecord } from '../contracts/sink.js';
import type { AgentgovHooks } from './hooks.js';

/**
 * Runs the `assess` waterfall and enforces its rule: a tap may raise the score freely, but a
 * lower score is accepted only when the tap recorded a `ScoreAdjustment` explaining it.
 * An unexplained lowering is undone and recorded as a factor, so nothing is lowered silently.
 */
export async function runAssess(hooks: AgentgovHooks, initial: Assessment, event: ToolCallEvent): Promise<Assessment> {
  const result = await hooks.assess.promise(initial, event);
  if (result.score >= initial.score) return result;
  const explained = (result.evidence.adjustments ?? []).some((a) => a.to === result.score && a.from >= result.score);
  if (explained) return result;
  return {
    ...initial,
    evidence: {
      ...initial.evidence,
      factors: [
        ...(initial.evidence.factors ?? []),
        `unexplained score lowering ${initial.score}→${result.score} ignored`,
      ],
    },
  };
}

export interface EmitFailure {
  sink: string;
  message: string;
}

/**
 * Emits one record to every sink in parallel. One failing sink never stops the others; every
 * failure is returned (the caller reports and counts it).
 */
export async function runEmit(hooks: AgentgovHooks, record: GovernanceRecord): Promise<EmitFailure[]> {
  const taps = (hooks.emit as unknown as { taps: { name: string; type: string; fn: (...a: unknown[]) => unknown }[] })
    .taps;
  const settled = await Promise.allSettled(
    taps.map(
      (tap) =>
        new Promise<void>((resolve, reject) => {
          try {
            if (tap.type === 'async') tap.fn(record, (err?: unknown) => (err ? reject(err) : resolve()));
            else Promise.resolve(tap.fn(record)).then(() => resolve(), reject);
          } catch (error) {
            reject(error);
          }
        }),
    ),
  );
  const failures: EmitFailure[] = [];
  settled.forEach((outcome, i) => {
    if (outcome.status === 'rejected') {
      const reason = outcome.reason as unknown;
      failures.push({ sink: taps[i]?.name ?? '?', message: reason instanceof Error ? reason.message : String(reason) });
    }
  });
  return failures;
}
