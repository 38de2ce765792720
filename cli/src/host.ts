import {
  bundledPluginsOf,
  createPluginHost,
  loadConfig,
  type LoadConfigOptions,
  type LoadedConfig,
  type Logger,
  type PluginHost,
} from '@agentgov/core';
import { CLI_PACKAGE_DIR, CLI_PACKAGE_JSON } from './package-info.js';

/** The plugins that ship with agentgov: the CLI package's `@agentgov/plugin-*` dependencies. */
export function bundledPlugins(): string[] {
  return bundledPluginsOf(CLI_PACKAGE_JSON);
}

/** Loads the effective config and every plugin it asks for; the start-up of every CLI host. */
export async function startCliHost(
  options: LoadConfigOptions,
  logger: Logger,
): Promise<{ loaded: LoadedConfig; host: PluginHost; ignored: string[] }> {
  const { applyProjectPolicy } = await import('./config-trust.js');
  const { loaded, ignored } = applyProjectPolicy(loadConfig(options), options.env);
  for (const note of ignored) logger.warn(note);
  for (const warning of loaded.warnings)
    logger.warn(
      `${warning.file ?? ''}${warning.line ? `:${warning.line}:${warning.column}` : ''} ` +
        `${warning.path}: ${warning.message}`,
    );
  const host = await createPluginHost({
    loaded,
    bundled: bundledPlugins(),
    resolveFrom: [CLI_PACKAGE_DIR],
    host: 'cli',
    logger,
  });
  return { loaded, host, ignored };
}
