/**
 * What a project's own `./agentgov.yaml` may do. A cloned repository must not be able to switch
 * the safety off, so:
 *  - the user's own config (`$AGENTGOV_HOME/config.yaml`, `--config`, `$AGENTGOV_CONFIG`) is the
 *    floor: the project's merges over it and may only tighten (core's config/layers.ts), so a
 *    setting that loosens safety (`gate.on_unavailable: allow`) is ignored, and reported;
 *  - plugins and risk rule files a project config names (code and rules the project ships) load
 *    only once the user trusted that config (`agentgov trust [PATH]`, like `direnv allow`), keyed
 *    by its path and the SHA-256 of its content, so an edit needs a new trust.
 * The trust store is `$AGENTGOV_HOME/trust.json` (0600, in a 0700 directory).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AgentgovError, type LoadedConfig } from '@agentgov/core';
import { agentgovHome, ensurePrivateHome, PRIVATE_FILE_MODE } from '@agentgov/core/paths';

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
export function setTrust(
  file: string,
  options: { revoke?: boolean; env?: NodeJS.ProcessEnv } = {},
): { file: string; sha256?: string } {
  const env = options.env ?? process.env;
  const store = readStore(env);
  let sha256: string | undefined;
  if (options.revoke) delete store.projects[file];
  else {
    sha256 = sha256Of(file);
    store.projects[file] = { sha256, trusted_at: new Date().toISOString() };
  }
  ensurePrivateHome(env);
  const temp = `${trustFile(env)}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(store, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  renameSync(temp, trustFile(env));
  return sha256 ? { file, sha256 } : { file };
}

/**
 * The config with what a project config may not do taken out; `ignored` says what and why (the
 * gate's answer, `config show` and every host's log repeat it). Loading already kept the user's
 * own file as the floor and refused every project value that would loosen it (core's layers.ts);
 * here the plugins and rule files the project added are dropped unless the project is trusted.
 */
export function applyProjectPolicy(
  loaded: LoadedConfig,
  env: NodeJS.ProcessEnv = process.env,
): { loaded: LoadedConfig; ignored: string[] } {
  const ignored = [...(loaded.ignored ?? [])];
  const project = loaded.layers?.find((layer) => layer.role === 'project');
  const added = loaded.projectAdded ?? { plugins: [], rules: [] };
  if (!project || (!added.plugins.length && !added.rules.length) || isTrusted(project.file, env))
    return { loaded, ignored };
  const config = {
    ...loaded.config,
    plugins: loaded.config.plugins.filter((p) => !added.plugins.includes(p)),
    risk: { ...loaded.config.risk, rules: loaded.config.risk.rules.filter((r) => !added.rules.includes(r)) },
  };
  const named = [
    ...added.plugins.map((p) => `plugin ${typeof p === 'string' ? p : p.plugin}`),
    ...added.rules.map((r) => `rule file ${r}`),
  ];
  ignored.push(
    `ignored ${named.join(', ')} named by the untrusted project config ` +
      `${project.file}: review it, then run \`agentgov trust ` +
      `${dirname(project.file)}\``,
  );
  return { loaded: { ...loaded, config }, ignored };
}
