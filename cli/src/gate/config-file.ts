/**
 * The gate client's view of the configuration, without loading the config stack (cosmiconfig,
 * yaml and ajv would cost more than the client's whole start-up budget). It resolves which file
 * the full resolution would merge — the same order as core's `resolveConfigLayers`, kept equal by a
 * test — and reuses the gate settings `watch` registered when `watch` loaded that same file.
 * Only when the files differ does the client pay for the full config load.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { agentgovHome } from '@agentgov/core/paths';
import type { GateEndpoint } from './endpoint.js';

const CWD_CONFIG_NAMES = ['agentgov.yaml', 'agentgov.yml'];

/** The layers a full load merges (core's `resolveConfigLayers`): the user's own file, then the project's. */
export function resolveConfigLayersCheaply(
  cwd: string,
  env: NodeJS.ProcessEnv,
): { user: string | null; userSource: 'env' | 'home' | null; project: string | null } {
  let user: string | null = null;
  let userSource: 'env' | 'home' | null = null;
  if (env['AGENTGOV_CONFIG']) [user, userSource] = [resolve(cwd, env['AGENTGOV_CONFIG']), 'env'];
  else if (existsSync(join(agentgovHome(env), 'config.yaml')))
    [user, userSource] = [join(agentgovHome(env), 'config.yaml'), 'home'];
  let project: string | null = null;
  for (const name of CWD_CONFIG_NAMES) {
    const candidate = join(cwd, name);
    if (existsSync(candidate)) {
      project = candidate === user ? null : candidate;
      break;
    }
  }
  return { user, userSource, project };
}

/**
 * One string naming the files a configuration merges (what `watch` registers as `config_file`); null: defaults only.
 */
export function configFilesKey(files: (string | null | undefined)[]): string | null {
  const named = files.filter((file): file is string => Boolean(file));
  return named.length ? named.join(' + ') : null;
}

export type GateSettings = GateEndpoint['gate'];

/** Gate settings: from the endpoint when it loaded the same file, else from the full config load. */
export async function gateSettings(
  endpoint: GateEndpoint | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ settings: GateSettings; problem?: string }> {
  const { user, project } = resolveConfigLayersCheaply(cwd, env);
  if (endpoint?.gate && endpoint.config_file === configFilesKey([user, project])) return { settings: endpoint.gate };
  const { loadConfig, defaultConfig } = await import('@agentgov/core');
  try {
    const { applyProjectPolicy } = await import('../config-trust.js');
    const { loaded, ignored } = applyProjectPolicy(loadConfig({ cwd, env }), env);
    return ignored.length
      ? { settings: loaded.config.gate, problem: ignored.join('; ') }
      : { settings: loaded.config.gate };
  } catch (error) {
    // An unreadable config never means allow: at least `ask`, whatever watch registered.
    const registered = endpoint?.gate ?? defaultConfig().gate;
    const fallback = {
      ...registered,
      on_unavailable: registered.on_unavailable === 'allow' ? ('ask' as const) : registered.on_unavailable,
    };
    return {
      settings: fallback,
      problem:
        `config could not be loaded, using on_unavailable '` +
        `${fallback.on_unavailable}': ${(error as Error).message}`,
    };
  }
}
