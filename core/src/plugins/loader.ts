import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import type { ConfigDocument, KeyPath } from '../config/document.js';
import { formatIssue, formatKeyPath } from '../config/document.js';
import { interpolateEnv } from '../config/interpolate.js';
import type { LoadedConfig } from '../config/load.js';
import type { PluginConfigEntry } from '../config/types.js';
import { schemaIssues } from '../config/validate.js';
import { AgentgovError } from '../errors/agentgov-error.js';
import { TapAttribution } from '../hooks/attribution.js';
import {
  createHooks,
  createRegistries,
  REGISTRATION_HOOKS,
  type AgentgovHooks,
  type HookName,
  type Registries,
} from '../hooks/hooks.js';
import type { Logger } from '../logging/logger.js';
import { isPlugin, type AgentgovPlugin, type PluginContext } from './plugin.js';
import { resolvePluginModule } from './resolve.js';

/** One plugin to load: where it is named and with which options. */
export interface PluginRequest {
  specifier: string;
  options: Record<string, unknown> | undefined;
  origin: 'config' | 'bundled';
  /** Key path of the entry in the config file, for error messages. */
  keyPath: KeyPath;
}

export interface LoadedPlugin {
  name: string;
  version: string | null;
  specifier: string;
  /** Absolute file the plugin was imported from. */
  resolvedFrom: string;
  origin: 'config' | 'bundled';
  hooks: HookName[];
  /** Providers it registered, as `kind:name`. */
  provides: string[];
}

/** A host's plugin system after start-up: frozen hooks, filled registries, loaded plugins. */
export interface PluginHost {
  hooks: AgentgovHooks;
  registries: Registries;
  plugins: LoadedPlugin[];
  attribution: TapAttribution;
}

export interface CreatePluginHostOptions {
  loaded: LoadedConfig;
  /** Package names of the bundled plugins (loaded when the config names none). */
  bundled: string[];
  /** Directories that package names also resolve from (the host's install). */
  resolveFrom: string[];
  host: PluginContext<unknown>['host'];
  logger: Logger;
  /** Environment that `${NAME}` in plugin options expands from (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

const optionsAjv = new Ajv({ allErrors: true, strict: false, useDefaults: true, verbose: true });

function entryOf(entry: PluginConfigEntry): { specifier: string; options: Record<string, unknown> | undefined } {
  return typeof entry === 'string'
    ? { specifier: entry, options: undefined }
    : { specifier: entry.plugin, options: entry.options };
}

/**
 * Which plugins to load, per `plugins` and `bundled_plugins`; a bundled plugin named in `plugins` is configured, not
 * loaded twice.
 */
export function pluginRequests(loaded: LoadedConfig, bundled: string[]): PluginRequest[] {
  const configured: PluginRequest[] = loaded.config.plugins.map((entry, index) => ({
    ...entryOf(entry),
    origin: 'config',
    keyPath: ['plugins', index],
  }));
  const mode = loaded.config.bundled_plugins;
  const includeBundled = mode === 'all' || (mode === 'auto' && configured.length === 0);
  if (!includeBundled) return configured;
  const named = new Set(configured.map((r) => r.specifier));
  const extra: PluginRequest[] = bundled
    .filter((b) => !named.has(b))
    .map((specifier) => ({ specifier, options: undefined, origin: 'bundled', keyPath: ['bundled_plugins'] }));
  return [...extra, ...configured];
}

function loadError(request: PluginRequest, loaded: LoadedConfig, reason: string, cause?: unknown): AgentgovError {
  const where = loaded.file ? `config ${loaded.file}` : 'built-in defaults';
  const key = formatKeyPath(request.keyPath);
  const pos = loaded.document?.position(request.keyPath);
  const at = pos ? `:${pos.line}:${pos.column}` : '';
  return new AgentgovError(
    'E_PLUGIN_LOAD',
    `plugin '${request.specifier}' (${where}${at}, key ${key}): ${reason}`,
    { plugin: request.specifier, file: loaded.file, key },
    { cause },
  );
}

async function importPlugin(
  request: PluginRequest,
  options: CreatePluginHostOptions,
): Promise<{ plugin: AgentgovPlugin<unknown>; file: string; version: string | null }> {
  const resolved = resolvePluginModule(request.specifier, options.loaded.baseDir, options.resolveFrom);
  if ('error' in resolved) throw loadError(request, options.loaded, `cannot be resolved: ${resolved.error}`);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(resolved.file).href)) as Record<string, unknown>;
  } catch (error) {
    throw loadError(request, options.loaded, `failed to import ${resolved.file}: ${(error as Error).message}`, error);
  }
  const candidate = mod['default'] ?? mod['plugin'];
  if (!isPlugin(candidate)) {
    throw loadError(
      request,
      options.loaded,
      `${resolved.file} does not export a plugin (expected a default export { name, apply })`,
    );
  }
  return { plugin: candidate, file: resolved.file, version: resolved.version };
}

/**
 * The plugin's options with `${NAME}` expanded from the environment, validated. Expansion happens
 * here, at load, so `loaded.config` (and `config show`) keeps the reference, never the secret.
 */
function validateOptions(
  plugin: AgentgovPlugin<unknown>,
  request: PluginRequest,
  loaded: LoadedConfig,
  env: NodeJS.ProcessEnv,
): Record<string, unknown> {
  const expanded = interpolateEnv(structuredClone(request.options ?? {}), env, ['options']);
  if (expanded.issues.length)
    throw loadError(
      request,
      loaded,
      `invalid options:\n${expanded.issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}`,
    );
  const options = expanded.value;
  if (!plugin.optionsSchema) return options;
  let validate;
  try {
    validate = optionsAjv.compile(plugin.optionsSchema);
  } catch (error) {
    throw loadError(
      request,
      loaded,
      `its optionsSchema is not a valid JSON Schema: ${(error as Error).message}`,
      error,
    );
  }
  if (validate(options)) return options;
  const base: KeyPath =
    request.origin === 'config' && typeof loaded.config.plugins[request.keyPath[1] as number] === 'object'
      ? [...request.keyPath, 'options']
      : [...request.keyPath];
  const document: ConfigDocument | undefined = request.origin === 'config' ? loaded.document : undefined;
  const issues = schemaIssues(validate.errors, document, base);
  throw loadError(request, loaded, `invalid options:\n${issues.map((i) => `  ${formatIssue(i)}`).join('\n')}`);
}

/**
 * Builds a host's plugin system: creates the frozen hooks, loads every requested plugin (resolve,
 * import, validate options, apply), then calls each registration hook once. Any failure stops
 * start-up with one `E_PLUGIN_LOAD` error naming the plugin, the config file and the key.
 */
export async function createPluginHost(options: CreatePluginHostOptions): Promise<PluginHost> {
  const hooks = createHooks();
  const attribution = new TapAttribution(hooks);
  const loadedPlugins: LoadedPlugin[] = [];
  const seen = new Map<string, string>();
  for (const request of pluginRequests(options.loaded, options.bundled)) {
    const { plugin, file, version } = await importPlugin(request, options);
    const previous = seen.get(plugin.name);
    if (previous)
      throw loadError(request, options.loaded, `a plugin named '${plugin.name}' is already loaded (from ${previous})`);
    seen.set(plugin.name, request.specifier);
    const pluginOptions = validateOptions(plugin, request, options.loaded, options.env ?? process.env);
    const context: PluginContext<unknown> = {
      options: pluginOptions,
      config: options.loaded.config,
      logger: options.logger.child(plugin.name),
      host: options.host,
      configFile: options.loaded.file,
      baseDir: options.loaded.baseDir,
    };
    try {
      await attribution.applying(plugin.name, () => plugin.apply(hooks, context));
    } catch (error) {
      throw loadError(request, options.loaded, `apply() threw: ${(error as Error)?.message ?? String(error)}`, error);
    }
    loadedPlugins.push({
      name: plugin.name,
      version,
      specifier: request.specifier,
      resolvedFrom: file,
      origin: request.origin,
      hooks: [],
      provides: [],
    });
  }
  const registries = createRegistries();
  for (const hookName of REGISTRATION_HOOKS) {
    try {
      (hooks[hookName] as { call(registry: unknown): void }).call(registries[hookName]);
    } catch (error) {
      const plugin = (error as AgentgovError).details?.['plugin'];
      throw new AgentgovError(
        'E_PLUGIN_LOAD',
        `registration hook '${hookName}' failed` +
          `${plugin ? ` in plugin '${String(plugin)}'` : ''}: ` +
          `${(error as Error).message}`,
        { hook: hookName, plugin },
        { cause: error },
      );
    }
  }
  for (const entry of loadedPlugins) {
    entry.hooks = attribution.hooksOf(entry.name);
    for (const hookName of REGISTRATION_HOOKS) {
      for (const provider of registries[hookName].entries())
        if (provider.plugin === entry.name) entry.provides.push(`${hookName}:${provider.provider.name}`);
    }
  }
  return { hooks, registries, plugins: loadedPlugins, attribution };
}

/** Bundled plugin package names: the `@agentgov/plugin-*` dependencies of a host package.json. */
export function bundledPluginsOf(packageJsonPath: string): string[] {
  const pkg = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { dependencies?: Record<string, string> };
  return Object.keys(pkg.dependencies ?? {})
    .filter((name) => name.startsWith('@agentgov/plugin-'))
    .sort();
}
