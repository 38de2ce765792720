import { resolve } from 'node:path';
import type { LoadedConfig, PluginHost } from '@agentgov/core';
import type { RiskEngine } from '../risk/engine.js';

export type { RiskEngine } from '../risk/engine.js';

/** Builds the risk engine with the config's extra rule files and the `riskRules` hook's sources. */
export async function loadRiskEngine(host: PluginHost, loaded: LoadedConfig): Promise<RiskEngine> {
  // Imported lazily: the engine pulls in tree-sitter, which commands that never assess don't need.
  const { createRiskEngine } = await import('../risk/engine.js');
  return createRiskEngine({
    extraRuleFiles: loaded.config.risk.rules.map((file) => resolve(loaded.baseDir, file)),
    sources: host.registries.riskRules.values(),
  });
}
