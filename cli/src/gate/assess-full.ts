/**
 * The gate's full start without `watch`: the config stack, every plugin the config asks for
 * (the CLI host) and the rules read and validated from their YAML (`loadRiskEngine`), exactly as
 * `watch` starts. It then writes the gate cache (gate-cache.ts), so the next call can take the
 * lean path. Loaded only when the cache cannot be used.
 */
import { statSync } from 'node:fs';
import { runAssess, silentLogger, type LoadedPlugin, type PluginHost } from '@agentgov/core';
import { startCliHost } from '../host.js';
import { loadRiskEngine } from '../pipeline/risk-engine.js';
import { needleList, type RuleSet } from '../risk/rule-compile.js';
import type { LocalAssessor } from './local-assessor.js';
import { gateCacheKey, writeGateCache, type CachedPlugin } from './gate-cache.js';
import { gateFormatsOf } from './plugin-formats.js';

const RISK_HOOKS = new Set(['assess', 'gate', 'riskRules']);

function cachedPlugin(plugin: LoadedPlugin): CachedPlugin {
  const stat = statSync(plugin.resolvedFrom);
  const riskRules = plugin.hooks.includes('riskRules') || plugin.provides.some((p) => p.startsWith('riskRules:'));
  return {
    name: plugin.name,
    specifier: plugin.specifier,
    origin: plugin.origin,
    file: plugin.resolvedFrom,
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    risk: riskRules || plugin.hooks.some((hook) => RISK_HOOKS.has(hook)),
    riskRules,
  };
}

/** The host's gate formats whose `module` exports that very format as `gateFormat`: name → module URL. */
async function loadableFormats(host: PluginHost): Promise<Record<string, string>> {
  const formats: Record<string, string> = {};
  for (const [name, format] of gateFormatsOf(host)) {
    if (!format.module) continue;
    try {
      const module = (await import(format.module)) as { gateFormat?: unknown };
      if (module.gateFormat === format) formats[name] = format.module;
    } catch {
      // Not loadable alone: the gate finds it through the host.
    }
  }
  return formats;
}

export async function fullAssessor(
  options: { cwd: string; env: NodeJS.ProcessEnv },
  key: string | undefined,
  trace: (message: string) => void,
): Promise<LocalAssessor> {
  const { host, loaded, ignored } = await startCliHost({ cwd: options.cwd, env: options.env }, silentLogger);
  const engine = await loadRiskEngine(host, loaded);
  const ruleSet = (engine as { ruleSet?: RuleSet }).ruleSet;
  // Written only when the configuration did not change while it loaded (the key is computed again).
  if (key && ruleSet && gateCacheKey(options.cwd, options.env) === key) {
    try {
      const file = writeGateCache(
        {
          key,
          config: { file: loaded.file, source: loaded.source, baseDir: loaded.baseDir, config: loaded.config },
          ignored,
          plugins: host.plugins.map(cachedPlugin),
          rules: ruleSet.sources,
          formats: await loadableFormats(host),
          needles: needleList(ruleSet.sources, ruleSet.needles),
        },
        options.env,
      );
      trace(`wrote the gate cache ${file}`);
    } catch (error) {
      trace(`could not write the gate cache: ${(error as Error).message}`);
    }
  }
  return {
    ignored,
    gate: loaded.config.gate,
    // As the pipeline does: a failing assess plugin keeps the engine's answer and says why.
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
