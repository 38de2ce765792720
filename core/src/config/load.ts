import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { cosmiconfigSync } from 'cosmiconfig';
import { AgentgovError } from '../errors/agentgov-error.js';
import { userConfigPath } from '../paths/home.js';
import { defaultConfig } from './defaults.js';
import { formatIssue, type ConfigDocument, type ConfigIssue } from './document.js';
import { mergeConfig } from './merge.js';
import { absolutizeLayer, markOrigins, mergeProjectLayer, type ConfigOrigin } from './layers.js';
import type { AgentgovConfig, PluginConfigEntry } from './types.js';
import { validateConfigText } from './validate.js';

/** Where the effective configuration came from, in resolution order. */
export type ConfigSource = 'flag' | 'env' | 'cwd' | 'home' | 'defaults';

export interface LoadedConfig {
  config: AgentgovConfig;
  /** Absolute path of the file merged over the defaults; null when only defaults apply. */
  file: string | null;
  source: ConfigSource;
  /** Directory that relative paths in the config (plugins, rule files) resolve from. */
  baseDir: string;
  /** Warnings found while loading (unknown top-level keys); errors throw instead. */
  warnings: ConfigIssue[];
  document?: ConfigDocument;
  /** The files merged, floor first: the user's own, then the project's. */
  layers?: { role: 'user' | 'project'; file: string; source: ConfigSource }[];
  /** Where each effective leaf value came from (dotted key → default / user file / project file). */
  origins?: Record<string, ConfigOrigin>;
  /** Project values that would have loosened the floor, refused: one message each, naming key and file. */
  ignored?: string[];
  /** What the project layer added (loaded only once the project is trusted). */
  projectAdded?: { plugins: PluginConfigEntry[]; rules: string[] };
}

export interface LoadConfigOptions {
  /** `--config PATH`. */
  configPath?: string | undefined;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export const CWD_CONFIG_NAMES = ['agentgov.yaml', 'agentgov.yml'];

/**
 * The one file `config validate` checks when given none: `--config` → env → ./agentgov.yaml → home.
 * Loading merges two layers (resolveConfigLayers); this picks the top one.
 */
export function resolveConfigFile(options: LoadConfigOptions = {}): { file: string | null; source: ConfigSource } {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  if (options.configPath) return { file: resolve(cwd, options.configPath), source: 'flag' };
  if (env['AGENTGOV_CONFIG']) return { file: resolve(cwd, env['AGENTGOV_CONFIG']), source: 'env' };
  // cosmiconfig with searchStrategy 'none' looks in the start directory only: ./agentgov.yaml.
  const found = cosmiconfigSync('agentgov', {
    searchPlaces: CWD_CONFIG_NAMES,
    searchStrategy: 'none',
    loaders: { '.yaml': rawLoader, '.yml': rawLoader },
  }).search(cwd);
  if (found) return { file: found.filepath, source: 'cwd' };
  const home = userConfigPath(env);
  if (existsSync(home)) return { file: home, source: 'home' };
  return { file: null, source: 'defaults' };
}

/** The loader only confirms the file exists; parsing happens in one place, with positions. */
function rawLoader(): object {
  return {};
}

/**
 * The user's own file (`--config` → `AGENTGOV_CONFIG` → `$AGENTGOV_HOME/config.yaml`) and the project's
 * `./agentgov.yaml`.
 */
export interface ConfigLayerFiles {
  user: { file: string; source: 'flag' | 'env' | 'home' } | null;
  project: { file: string; source: 'cwd' } | null;
}

/** The two layers resolution loads: the user's file is the floor, the project's merges over it. */
export function resolveConfigLayers(options: LoadConfigOptions = {}): ConfigLayerFiles {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  let user: ConfigLayerFiles['user'] = null;
  if (options.configPath) user = { file: resolve(cwd, options.configPath), source: 'flag' };
  else if (env['AGENTGOV_CONFIG']) user = { file: resolve(cwd, env['AGENTGOV_CONFIG']), source: 'env' };
  else if (existsSync(userConfigPath(env))) user = { file: userConfigPath(env), source: 'home' };
  const found = cosmiconfigSync('agentgov', {
    searchPlaces: CWD_CONFIG_NAMES,
    searchStrategy: 'none',
    loaders: { '.yaml': rawLoader, '.yml': rawLoader },
  }).search(cwd);
  const project = found && found.filepath !== user?.file ? { file: found.filepath, source: 'cwd' as const } : null;
  return { user, project };
}

/** One layer's file read and validated; throws `E_CONFIG_INVALID` naming the file and how it was chosen. */
function readLayer(
  file: string,
  source: ConfigSource,
): { value: Record<string, unknown>; warnings: ConfigIssue[]; document: ConfigDocument } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'does not exist'
        : `cannot be read (${(error as Error).message})`;
    const via = source === 'flag' ? '--config' : source === 'env' ? 'AGENTGOV_CONFIG' : source;
    throw new AgentgovError('E_CONFIG_INVALID', `config file ${file} (from ${via}) ${reason}`, {
      file,
      source,
      issues: [],
    });
  }
  const { value, issues, document } = validateConfigText(text, file);
  const errors = issues.filter((i) => i.severity === 'error');
  if (errors.length) {
    throw new AgentgovError(
      'E_CONFIG_INVALID',
      `invalid configuration in ${file}:\n${issues.map((i) => `  ${formatIssue(i)}`).join('\n')}`,
      { file, source, issues },
    );
  }
  return {
    value: value as Record<string, unknown>,
    warnings: issues.filter((i) => i.severity === 'warning'),
    document,
  };
}

/**
 * Loads the effective configuration: the defaults, the user's own file merged over them (the
 * floor), then the project's `./agentgov.yaml` merged over that where it only tightens (layers.ts).
 * Throws `E_CONFIG_INVALID` (with every issue in `details.issues`) when a file is missing,
 * unreadable, malformed or does not match the schema — the user's file included: a floor that
 * cannot be read is never replaced by what a project says.
 */
export function loadConfig(options: LoadConfigOptions = {}): LoadedConfig {
  const cwd = options.cwd ?? process.cwd();
  const { user, project } = resolveConfigLayers(options);
  const origins: Record<string, ConfigOrigin> = {};
  const defaults = defaultConfig();
  markOrigins(origins, defaults, { from: 'default', file: null });
  const layers: NonNullable<LoadedConfig['layers']> = [];
  const base = { layers, origins, ignored: [] as string[], projectAdded: { plugins: [], rules: [] } };
  if (!user && !project)
    return { config: defaults, file: null, source: 'defaults', baseDir: cwd, warnings: [], ...base };
  let config = defaults;
  const warnings: ConfigIssue[] = [];
  let document: ConfigDocument | undefined;
  if (user) {
    const layer = readLayer(user.file, user.source);
    // With a project layer too, the user's relative paths keep meaning "next to my file".
    const value = project ? absolutizeLayer(layer.value, dirname(user.file)) : layer.value;
    config = mergeConfig(config, value);
    markOrigins(origins, value, { from: 'user', file: user.file });
    warnings.push(...layer.warnings);
    document = layer.document;
    layers.push({ role: 'user', file: user.file, source: user.source });
  }
  if (!project)
    return {
      config,
      file: user!.file,
      source: user!.source,
      baseDir: dirname(user!.file),
      warnings,
      document,
      ...base,
    };
  const layer = readLayer(project.file, 'cwd');
  const merged = mergeProjectLayer(config, layer.value, project.file, origins);
  warnings.push(...layer.warnings);
  layers.push({ role: 'project', file: project.file, source: 'cwd' });
  // Positions of plugin entries are the project file's only when the user's file names no plugins.
  const projectDocument = config.plugins.length === 0 ? layer.document : undefined;
  return {
    config: merged.config,
    file: project.file,
    source: 'cwd',
    baseDir: dirname(project.file),
    warnings,
    document: user ? projectDocument : layer.document,
    ...base,
    ignored: merged.ignored,
    projectAdded: merged.added,
  };
}
