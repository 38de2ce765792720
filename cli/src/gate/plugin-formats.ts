/**
 * The gate formats plugins bring: each framework adapter's `gateFormat`, read from a plugin host.
 * Used by the gate for a format the bundle does not hold, by `init` and `doctor` (which have a host
 * already), and by scripts/bundle-gate.mjs, which compiles in what the bundled plugins' host gives.
 */
import { createPluginHost, defaultConfig, silentLogger, type LoadedConfig, type PluginHost } from '@agentgov/core';
import type { GateHookFormat } from '@agentgov/core/gate-hook';
import { bundledPlugins, startCliHost } from '../host.js';
import { CLI_PACKAGE_DIR } from '../package-info.js';

/** Where the gate runs: the configuration of `cwd` decides which plugins there are. */
interface Scope {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** The formats a host's frameworks bring, by name; the first framework in load order to bring a name provides it. */
export function gateFormatsOf(host: PluginHost): Map<string, GateHookFormat> {
  const formats = new Map<string, GateHookFormat>();
  for (const framework of host.registries.frameworks.values()) {
    const format = framework.gateFormat;
    if (format && !formats.has(format.name)) formats.set(format.name, format);
  }
  return formats;
}

/**
 * The host of every bundled plugin, whatever a configuration says: the formats the CLI ships, which
 * every gate speaks (an installed hook keeps working when a configuration lists its own plugins).
 */
export function bundledPluginHost(): Promise<PluginHost> {
  const loaded: LoadedConfig = {
    config: { ...defaultConfig(), plugins: [], bundled_plugins: 'all' },
    file: null,
    source: 'defaults',
    baseDir: CLI_PACKAGE_DIR,
    warnings: [],
  };
  return createPluginHost({
    loaded,
    bundled: bundledPlugins(),
    resolveFrom: [CLI_PACKAGE_DIR],
    host: 'cli',
    logger: silentLogger,
  });
}

/** The configuration's host: its plugins, with the project policy applied. */
async function configuredHost(scope: Scope): Promise<PluginHost> {
  try {
    return (await startCliHost({ cwd: scope.cwd, env: scope.env }, silentLogger)).host;
  } catch (error) {
    throw new Error(
      'no bundled plugin brings this gate format, and the configuration that may bring it ' +
        `cannot be loaded: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** The format `name` from the bundled plugins, else from the plugins the configuration loads. */
export async function pluginGateFormat(name: string, scope: Scope): Promise<GateHookFormat | undefined> {
  return gateFormatsOf(await bundledPluginHost()).get(name) ?? gateFormatsOf(await configuredHost(scope)).get(name);
}

/** Every format name `--format` accepts here, sorted (for messages). */
export async function gateFormatNames(scope: Scope): Promise<string[]> {
  const names = new Set(['json', ...gateFormatsOf(await bundledPluginHost()).keys()]);
  try {
    for (const name of gateFormatsOf(await configuredHost(scope)).keys()) names.add(name);
  } catch {
    // The configuration's own formats are unknown: the bundled ones are still the answer.
  }
  return [...names].sort();
}
