/**
 * The outcome the gate prints when it could not assess at all: `gate.on_unavailable` decides,
 * and the reason says exactly what failed. How an outcome is printed is the `--format`'s
 * (formats.ts). Node built-ins only: gate start-up path.
 */
import type { GateOutcome } from '@agentgov/core/gate-hook';
import type { GateFailure } from './client.js';

export type { GateOutcome } from '@agentgov/core/gate-hook';
export type OnUnavailable = 'ask' | 'deny' | 'allow';

/** The verdict `gate.on_unavailable` gives when nothing could assess the call. */
export function unavailableOutcome(failure: GateFailure, onUnavailable: OnUnavailable): GateOutcome {
  return {
    verdict: {
      decision: onUnavailable,
      reason:
        `agentgov gate could not get a verdict (` +
        `${failure.failure}): ${failure.message}. gate.on_unavailable is '` +
        `${onUnavailable}'.`,
      decided_by: 'gate.on_unavailable',
    },
    unavailable: { code: failure.failure, message: failure.message },
  };
}
