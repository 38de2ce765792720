import { resolve } from 'node:path';
import type { Assessment, LoadedConfig, PluginHost, RiskRuleSource, ToolCallEvent } from '@agentgov/core';

/** The risk engine as the pipeline uses it (built in cli/src/risk/engine.ts). */
export interface RiskEngine {
  /** Synchronous, deterministic, never throws. */
  assess(event: ToolCallEvent): Assessment;
}

interface RiskEngineModule {
  createRiskEngine(options: { extraRuleFiles?: string[]; sources?: RiskRuleSource[] }): Promise<RiskEngine>;
}

/** Builds the risk engine with the config's extra rule files and the `riskRules` hook's sources. */
export async function loadRiskEngine(host: PluginHost, loaded: LoadedConfig): Promise<RiskEngine> {
  // Loaded lazily: the engine pulls in tree-sitter, which commands that don't assess never need.
  const specifier = '../risk/engine.js';
  const mod = (await import(specifier)) as RiskEngineModule;
  return mod.createRiskEngine({
    extraRuleFiles: loaded.config.risk.rules.map((file) => resolve(loaded.baseDir, file)),
    sources: host.registries.riskRules.values(),
  });
}
