import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { cosmiconfigSync } from 'cosmiconfig';
import { AgentgovError } from '../errors/agentgov-error.js';
import { userConfigPath } from '../paths/home.js';
import { defaultConfig } from './defaults.js';
import { formatIssue, type ConfigDocument, type ConfigIssue } from './document.js';
import { mergeConfig } from './merge.js';
import type { AgentgovConfig } from './types.js';
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
}

export interface LoadConfigOptions {
  /** `--config PATH`. */
  configPath?: string | undefined;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export const CWD_CONFIG_NAMES = ['agentgov.yaml', 'agentgov.yml'];

/** The config file that resolution picks, without reading it: `--config` → env → ./agentgov.yaml → home. */
export function resolveConfigFile(options: LoadConfigOptions = {}): { file: string | null; source: ConfigSource } {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  if (options.configPath) return { file: resolve(cwd, options.configPath), source: 'flag' };
  if (env['AGENTGOV_CONFIG']) return { file: resolve(cwd, env['AGENTGOV_CONFIG']), source: 'env' };
  // cosmiconfig with searchStrategy 'none' looks in the start directory only: ./agentgov.yaml.
  const found = cosmiconfigSync('agentgov', { searchPlaces: CWD_CONFIG_NAMES, searchStrategy: 'none', loaders: { '.yaml': rawLoader, '.yml': rawLoader } }).search(cwd);
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
 * Loads the effective configuration. Throws `E_CONFIG_INVALID` (with every issue in `details.issues`)
 * when the chosen file is missing, unreadable, malformed or does not match the schema.
 */
export function loadConfig(options: LoadConfigOptions = {}): LoadedConfig {
  const { file, source } = resolveConfigFile(options);
  const cwd = options.cwd ?? process.cwd();
  if (!file) return { config: defaultConfig(), file: null, source, baseDir: cwd, warnings: [] };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read (${(error as Error).message})`;
    const via = source === 'flag' ? '--config' : source === 'env' ? 'AGENTGOV_CONFIG' : source;
    throw new AgentgovError('E_CONFIG_INVALID', `config file ${file} (from ${via}) ${reason}`, { file, source, issues: [] });
  }
  const { value, issues, document } = validateConfigText(text, file);
  const errors = issues.filter((i) => i.severity === 'error');
  if (errors.length) {
    throw new AgentgovError('E_CONFIG_INVALID', `invalid configuration in ${file}:\n${issues.map((i) => `  ${formatIssue(i)}`).join('\n')}`, { file, source, issues });
  }
  return {
    config: mergeConfig(defaultConfig(), value),
    file,
    source,
    baseDir: dirname(file),
    warnings: issues.filter((i) => i.severity === 'warning'),
    document,
  };
}
