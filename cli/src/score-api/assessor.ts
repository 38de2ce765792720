/**
 * The assessor of the standalone `score` server: the risk engine plus the `assess` waterfall of
 * the loaded plugins — the pipeline's assessment without the pipeline's database, which `score`
 * never opens (it writes nothing, anywhere). Inside `watch` the pipeline's own `assess` is used.
 */
import { resolve } from 'node:path';
import {
  runAssess,
  type Assessment,
  type LoadedConfig,
  type Logger,
  type PluginHost,
  type ToolCallEvent,
} from '@agentgov/core';
import { createRiskEngine } from '../risk/engine.js';

export interface ScoreAssessor {
  assess(event: ToolCallEvent): Promise<Assessment>;
  rulesLoaded: number;
}

export async function createScoreAssessor(
  host: PluginHost,
  loaded: LoadedConfig,
  logger: Logger,
): Promise<ScoreAssessor> {
  const engine = await createRiskEngine({
    extraRuleFiles: loaded.config.risk.rules.map((file) => resolve(loaded.baseDir, file)),
    sources: host.registries.riskRules.values(),
  });
  return {
    rulesLoaded: engine.rulesLoaded,
    async assess(event) {
      const initial = engine.assess(event);
      // No plugin taps `assess` (the usual case): the waterfall would hand the assessment back as it is.
      if (!host.hooks.assess.isUsed()) return initial;
      try {
        return await runAssess(host.hooks, initial, event);
      } catch (error) {
        logger.warn(`assess hook failed: ${(error as Error).message}`);
        return {
          ...initial,
          evidence: {
            ...initial.evidence,
            factors: [...(initial.evidence.factors ?? []), `assess hook failed: ${(error as Error).message}`],
          },
        };
      }
    },
  };
}
