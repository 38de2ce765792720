/**
 * What a project's own `./agentgov.yaml` may do. A cloned repository must not be able to switch
 * the safety off, so:
 *  - settings that loosen safety (`gate.on_unavailable: allow`) are honoured only from the user's
 *    own config (`$AGENTGOV_HOME/config.yaml`, `--config`, `$AGENTGOV_CONFIG`); from a project
 *    config they are replaced by the user's value (else the default) and reported;
 *  - plugins and risk rule files a project config names (code and rules the project ships) load
 *    only once the user trusted that config (`agentgov trust [PATH]`, like `direnv allow`), keyed
 *    by its path and the SHA-256 of its content, so an edit needs a new trust.
 * The trust store is `$AGENTGOV_HOME/trust.json` (0600, in a 0700 directory).
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AgentgovError, defaultConfig, loadConfig, type LoadedConfig } from '@agentgov/core';
import { agentgovHome, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, userConfigPath } from '@agentgov/core/paths';

const trustFile = (env: NodeJS.ProcessEnv): string => join(agentgovHome(env), 'trust.json');

interface TrustStore {
  projects: Record<string, { sha256: string; trusted_at: string }>;
}

function readStore(env: NodeJS.ProcessEnv): TrustStore {
  try {
    const value = JSON.parse(readFileSync(trustFile(env), 'utf8')) as Partial<TrustStore>;
    return { projects: typeof value.projects === 'object' && value.projects !== null ? value.projects : {} };
  } catch {
    return { projects: {} };
  }
}

const sha256Of = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The project config a path stands for: the file itself, or `agentgov.yaml`/`.yml` in a directory. */
export function projectConfigOf(path: string): string {
  const target = resolve(path);
  if (existsSync(target) && statSync(target).isDirectory()) {
    for (const name of ['agentgov.yaml', 'agentgov.yml']) if (existsSync(join(target, name))) return join(target, name);
    throw new AgentgovError('E_NOT_FOUND', `${target} has no agentgov.yaml to trust`, { path: target });
  }
  if (!existsSync(target)) throw new AgentgovError('E_NOT_FOUND', `${target} does not exist`, { path: target });
  return target;
}

export function isTrusted(file: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const entry = readStore(env).projects[file];
  return entry !== undefined && existsSync(file) && entry.sha256 === sha256Of(file);
}

/** Trusts (or with `revoke`, forgets) a project config as it is now. */
export function setTrust(file: string, options: { revoke?: boolean; env?: NodeJS.ProcessEnv } = {}): { file: string; sha256?: string } {
  const env = options.env ?? process.env;
  const store = readStore(env);
  let sha256: string | undefined;
  if (options.revoke) delete store.projects[file];
  else {
    sha256 = sha256Of(file);
    store.projects[file] = { sha256, trusted_at: new Date().toISOString() };
  }
  const home = agentgovHome(env);
  mkdirSync(home, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(home, PRIVATE_DIR_MODE);
  const temp = `${trustFile(env)}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(store, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  renameSync(temp, trustFile(env));
  return sha256 ? { file, sha256 } : { file };
}

/** `gate.on_unavailable` from the user's own config file, else the default. */
function userOnUnavailable(env: NodeJS.ProcessEnv): LoadedConfig['config']['gate']['on_unavailable'] {
  const file = userConfigPath(env);
  if (!existsSync(file)) return defaultConfig().gate.on_unavailable;
  try {
    return loadConfig({ configPath: file, env }).config.gate.on_unavailable;
  } catch {
    return defaultConfig().gate.on_unavailable;
  }
}

/**
 * The config with what a project config may not do taken out; `ignored` says what and why (the
 * gate's answer, `config show` and every host's log repeat it). Only a config found as
 * `./agentgov.yaml` (source `cwd`) is a project's: the others are the user's own choice.
 */
export function applyProjectPolicy(loaded: LoadedConfig, env: NodeJS.ProcessEnv = process.env): { loaded: LoadedConfig; ignored: string[] } {
  if (loaded.source !== 'cwd' || !loaded.file) return { loaded, ignored: [] };
  const ignored: string[] = [];
  const config = { ...loaded.config, gate: { ...loaded.config.gate }, risk: { ...loaded.config.risk } };
  if (config.gate.on_unavailable === 'allow') {
    config.gate.on_unavailable = userOnUnavailable(env);
    ignored.push(
      `ignored gate.on_unavailable: allow from the project config ${loaded.file}: a setting that loosens safety is honoured only from your own config ($AGENTGOV_HOME/config.yaml, --config, AGENTGOV_CONFIG); using '${config.gate.on_unavailable}'`,
    );
  }
  if ((config.plugins.length || config.risk.rules.length) && !isTrusted(loaded.file, env)) {
    const named = [...config.plugins.map((p) => `plugin ${typeof p === 'string' ? p : p.plugin}`), ...config.risk.rules.map((r) => `rule file ${r}`)];
    config.plugins = [];
    config.risk.rules = [];
    ignored.push(`ignored ${named.join(', ')} named by the untrusted project config ${loaded.file}: review it, then run \`agentgov trust ${loaded.baseDir}\``);
  }
  return { loaded: { ...loaded, config }, ignored };
}
