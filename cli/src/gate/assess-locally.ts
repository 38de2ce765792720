/**
 * The gate without `watch`: the same config, plugins, rules and engine as `watch`, the same
 * decision (`createGateDecider`: the `assess` waterfall, the `gate` bail hook, else the
 * assessment's action), so the verdict is the one `watch` would give. The decision goes to the
 * gate journal instead of system.db (the next `watch` records it); a probe run by `init`/`doctor`
 * is not journaled. Loaded only when `watch` cannot answer.
 *
 * Two ways to the same engine. The lean path, when the gate cache (gate-cache.ts) holds an entry
 * for this configuration that still matches every file it names: the rules are compiled from the
 * validated specs it keeps (no yaml, ajv, cosmiconfig, plugin host) and only the plugins that can
 * change a verdict are loaded. Otherwise, or when anything on the lean path fails, the full start
 * (assess-full.ts), which writes a fresh entry.
 */
import type { GateVerdict } from '@agentgov/core';
import type { GateInput, GateOutcome } from '@agentgov/core/gate-hook';
import { createRiskEngineFromRuleSet } from '../risk/engine.js';
import { createGateDecider } from './decide.js';
import { cachedRuleSet, gateCacheKey, readGateCache, type GateCacheEntry } from './gate-cache.js';
import { appendJournal, type JournalEntry } from './journal.js';
import type { LocalAssessor } from './local-assessor.js';

/**
 * AGENTGOV_GATE_TRACE=1: say on stderr which path a call took (for people and tests; the hook's stdout is unchanged).
 */
function tracer(env: NodeJS.ProcessEnv): (message: string) => void {
  return env['AGENTGOV_GATE_TRACE']
    ? (message) => process.stderr.write(`agentgov gate: ${message}\n`)
    : () => undefined;
}

async function leanAssessor(
  entry: GateCacheEntry,
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<LocalAssessor> {
  const riskPlugins = entry.plugins.filter((plugin) => plugin.risk);
  if (riskPlugins.length === 0) {
    // No plugin taps assess or gate: the waterfall returns the engine's assessment and the bail hook no verdict.
    const engine = createRiskEngineFromRuleSet(cachedRuleSet(entry), { warm: false });
    return {
      ignored: entry.ignored,
      gate: entry.config.config.gate,
      assess: async (event) => engine.assess(event),
      gateHook: async () => undefined,
    };
  }
  const { leanHostAssessor } = await import('./assess-subset.js');
  return leanHostAssessor(entry, riskPlugins, options);
}

export async function assessLocally(
  input: GateInput,
  options: { cwd: string; env: NodeJS.ProcessEnv; journal: boolean; learnGate?: (gate: LocalAssessor['gate']) => void },
): Promise<GateOutcome> {
  const trace = tracer(options.env);
  const notes: string[] = [];
  let assessor: LocalAssessor | undefined;
  let key: string | undefined;
  try {
    key = gateCacheKey(options.cwd, options.env);
    const read = readGateCache(key, options.env);
    if ('entry' in read) {
      assessor = await leanAssessor(read.entry, options);
      trace(
        `lean path: rules and plugins from the gate cache (` +
          `${read.entry.plugins.filter((p) => p.risk).length} plugin(s) loaded)`,
      );
    } else {
      trace(`full start: ${read.stale}`);
      if (read.tampered) process.stderr.write(`agentgov gate: ${read.stale}\n`);
    }
  } catch (error) {
    trace(`full start: the lean path failed (${(error as Error).message})`);
  }
  if (!assessor) {
    const { fullAssessor } = await import('./assess-full.js');
    assessor = await fullAssessor(options, key, trace);
  }
  // The configuration is known now: its gate.deadline_ms may shorten the call's deadline (never lengthen it).
  options.learnGate?.(assessor.gate);
  const decider = createGateDecider({
    assess: assessor.assess,
    gateHook: assessor.gateHook,
    record: (decision) => journal(decision, options, notes),
    emit: async () => undefined,
    defaultCwd: options.cwd,
  });
  const decision = await decider.decide(input);
  const outcome: GateOutcome = {
    verdict: { ...decision.verdict, reason: `${decision.verdict.reason} (assessed in process: watch is not running)` },
    event_id: decision.event_id,
    assessment: decision.assessment,
  };
  if (assessor.ignored.length || notes.length) outcome.notes = [...assessor.ignored, ...notes];
  return outcome;
}

/** Journals a decision; a journal that cannot be written costs a note, never the verdict. */
function journal(decision: JournalEntry, options: { env: NodeJS.ProcessEnv; journal: boolean }, notes: string[]): void {
  if (!options.journal) return;
  try {
    appendJournal(decision, options.env);
  } catch (error) {
    notes.push(`the decision could not be journaled for watch to record: ${(error as Error).message}`);
  }
}

const STRICTNESS: Record<GateVerdict['decision'], number> = { allow: 0, ask: 1, deny: 2 };

/**
 * When the policy could not be read (the config, a rule file, a plugin: the full start failed),
 * the call is still judged — by the shipped rules alone — and answered at least `ask`: an
 * unreadable policy never means allow, whatever `gate.on_unavailable` says, and `rm -rf ~` stays
 * denied. The reason says the policy could not be read and why.
 */
export async function assessWithShippedRules(
  input: GateInput,
  options: { cwd: string; env: NodeJS.ProcessEnv; journal: boolean },
  why: string,
): Promise<GateOutcome> {
  const { createRiskEngine } = await import('../risk/engine.js');
  const engine = await createRiskEngine();
  const decider = createGateDecider({
    assess: async (event) => engine.assess(event),
    gateHook: async () => undefined,
    record: (decision) => journal(decision, options, notes),
    emit: async () => undefined,
    defaultCwd: options.cwd,
  });
  const notes: string[] = [];
  const decision = await decider.decide(input);
  const judged = decision.verdict.decision;
  const final = STRICTNESS[judged] >= STRICTNESS.ask ? judged : 'ask';
  const note =
    `the policy could not be read (${why}): judged by the shipped rules only, ` +
    `and answered at least 'ask'; gate.on_unavailable does not apply`;
  return {
    verdict: {
      decision: final,
      reason: `agentgov: ${final}: ${note}; the shipped rules said: ${decision.verdict.reason}`,
      decided_by: 'policy-unreadable',
    },
    event_id: decision.event_id,
    assessment: decision.assessment,
    unavailable: { code: 'policy_unreadable', message: why },
    notes: [note, ...notes],
  };
}
