/**
 * The lean path when some plugins can change a verdict: a plugin host with those plugins only
 * (in their order, with their configured options), over the cached config. Rules come from the
 * cache unless one of them provides `riskRules`; then they are read and validated live, as a
 * full start does.
 */
import { resolve } from 'node:path';
import { createPluginHost, runAssess, silentLogger, type LoadedConfig, type PluginConfigEntry } from '@agentgov/core';
import { CLI_PACKAGE_DIR } from '../package-info.js';
import { createRiskEngine, createRiskEngineFromRuleSet } from '../risk/engine.js';
import type { LocalAssessor } from './local-assessor.js';
import { cachedRuleSet, type CachedPlugin, type GateCacheEntry } from './gate-cache.js';

const specifierOf = (entry: PluginConfigEntry): string => (typeof entry === 'string' ? entry : entry.plugin);

export async function leanHostAssessor(
  entry: GateCacheEntry,
  riskPlugins: CachedPlugin[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<LocalAssessor> {
  const configured = new Set(riskPlugins.filter((p) => p.origin === 'config').map((p) => p.specifier));
  const bundled = riskPlugins.filter((p) => p.origin === 'bundled').map((p) => p.specifier);
  const config = {
    ...entry.config.config,
    plugins: entry.config.config.plugins.filter((p) => configured.has(specifierOf(p))),
    bundled_plugins: bundled.length ? 'all' : 'none',
  } as LoadedConfig['config'];
  const baseDir = entry.config.file ? entry.config.baseDir : options.cwd;
  const loaded: LoadedConfig = {
    config,
    file: entry.config.file,
    source: entry.config.source as LoadedConfig['source'],
    baseDir,
    warnings: [],
  };
  const host = await createPluginHost({
    loaded,
    bundled,
    resolveFrom: [CLI_PACKAGE_DIR],
    host: 'cli',
    logger: silentLogger,
    env: options.env,
  });
  const expected = riskPlugins.map((p) => p.name).join(',');
  const got = host.plugins.map((p) => p.name).join(',');
  if (got !== expected)
    throw new Error(`the plugins that can change a verdict are now ${got || 'none'}, the cache says ${expected}`);
  const engine = riskPlugins.some((p) => p.riskRules)
    ? await createRiskEngine({
        extraRuleFiles: entry.config.config.risk.rules.map((file) => resolve(baseDir, file)),
        sources: host.registries.riskRules.values(),
      })
    : createRiskEngineFromRuleSet(cachedRuleSet(entry), {
        warm: false,
      });
  return {
    ignored: entry.ignored,
    gate: entry.config.config.gate,
    assess: async (event) => {
      const initial = engine.assess(event);
      try {
        return await runAssess(host.hooks, initial, event);
      } catch (error) {
        return {
          ...initial,
          evidence: {
            ...initial.evidence,
            factors: [...(initial.evidence.factors ?? []), `assess hook failed: ${(error as Error).message}`],
          },
        };
      }
    },
    gateHook: (event, assessment) => host.hooks.gate.promise(event, assessment),
  };
}
