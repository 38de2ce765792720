/**
 * The gate without `watch`: the same config, plugins, rules and engine as `watch` (the CLI host and
 * `loadRiskEngine`), the same decision (`createGateDecider`: the `assess` waterfall, the `gate` bail
 * hook, else the assessment's action), so the verdict is the one `watch` would give. The decision
 * goes to the gate journal instead of system.db (the next `watch` records it); a probe run by
 * `init`/`doctor` is not journaled. Loaded only when `watch` cannot answer.
 */
import { runAssess, silentLogger } from '@agentgov/core';
import type { GateInput, GateOutcome } from '@agentgov/core/gate-hook';
import { startCliHost } from '../host.js';
import { loadRiskEngine } from '../pipeline/risk-engine.js';
import { createGateDecider } from './decide.js';
import { appendJournal } from './journal.js';

export async function assessLocally(input: GateInput, options: { cwd: string; env: NodeJS.ProcessEnv; journal: boolean }): Promise<GateOutcome> {
  const { host, loaded, ignored } = await startCliHost({ cwd: options.cwd, env: options.env }, silentLogger);
  const engine = await loadRiskEngine(host, loaded);
  const decider = createGateDecider({
    // As the pipeline does: a failing assess plugin keeps the engine's answer and says why.
    assess: async (event) => {
      const initial = engine.assess(event);
      try {
        return await runAssess(host.hooks, initial, event);
      } catch (error) {
        return { ...initial, evidence: { ...initial.evidence, factors: [...(initial.evidence.factors ?? []), `assess hook failed: ${(error as Error).message}`] } };
      }
    },
    gateHook: (event, assessment) => host.hooks.gate.promise(event, assessment),
    record: (decision) => {
      if (options.journal) appendJournal(decision, options.env);
    },
    emit: async () => undefined,
    defaultCwd: options.cwd,
  });
  const decision = await decider.decide(input);
  const outcome: GateOutcome = { verdict: { ...decision.verdict, reason: `${decision.verdict.reason} (assessed in process: watch is not running)` }, event_id: decision.event_id, assessment: decision.assessment };
  if (ignored.length) outcome.notes = ignored;
  return outcome;
}
