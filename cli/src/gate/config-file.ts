/**
 * The gate client's view of the configuration, without loading the config stack (cosmiconfig,
 * yaml and ajv would cost more than the client's whole start-up budget). It resolves which file
 * the full resolution would pick — the same order as core's `resolveConfigFile`, kept equal by a
 * test — and reuses the gate settings `watch` registered when `watch` loaded that same file.
 * Only when the files differ does the client pay for the full config load.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { agentgovHome } from '@agentgov/core/paths';
import type { GateEndpoint } from './endpoint.js';

const CWD_CONFIG_NAMES = ['agentgov.yaml', 'agentgov.yml'];

export function resolveConfigFileCheaply(cwd: string, env: NodeJS.ProcessEnv): { file: string | null; source: 'env' | 'cwd' | 'home' | 'defaults' } {
  if (env['AGENTGOV_CONFIG']) return { file: resolve(cwd, env['AGENTGOV_CONFIG']), source: 'env' };
  for (const name of CWD_CONFIG_NAMES) {
    const candidate = join(cwd, name);
    if (existsSync(candidate)) return { file: candidate, source: 'cwd' };
  }
  const home = join(agentgovHome(env), 'config.yaml');
  return existsSync(home) ? { file: home, source: 'home' } : { file: null, source: 'defaults' };
}

export type GateSettings = GateEndpoint['gate'];

/** Gate settings: from the endpoint when it loaded the same file, else from the full config load. */
export async function gateSettings(endpoint: GateEndpoint | undefined, cwd: string, env: NodeJS.ProcessEnv): Promise<{ settings: GateSettings; problem?: string }> {
  const { file } = resolveConfigFileCheaply(cwd, env);
  if (endpoint?.gate && endpoint.config_file === file) return { settings: endpoint.gate };
  const { loadConfig, defaultConfig } = await import('@agentgov/core');
  try {
    const { applyProjectPolicy } = await import('../config-trust.js');
    const { loaded, ignored } = applyProjectPolicy(loadConfig({ cwd, env }), env);
    return ignored.length ? { settings: loaded.config.gate, problem: ignored.join('; ') } : { settings: loaded.config.gate };
  } catch (error) {
    const fallback = endpoint?.gate ?? defaultConfig().gate;
    return { settings: fallback, problem: `config could not be loaded, using on_unavailable '${fallback.on_unavailable}': ${(error as Error).message}` };
  }
}
