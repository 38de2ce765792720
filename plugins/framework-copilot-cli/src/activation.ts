/**
 * What Copilot CLI (tested with 1.0.102) needs before it calls a preToolUse hook, read from its
 * own files:
 *
 * - `$COPILOT_HOME/hooks/*.json` (user) load in every mode.
 * - `.github/hooks/*.json` (project) load interactively once the folder is trusted; in prompt mode
 *   (`copilot -p`) only when the folder is already trusted (`trustedFolders` of
 *   `$COPILOT_HOME/config.json`, a folder or any parent), or `GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true`
 *   or `COPILOT_ALLOW_ALL=true` is set (changelog 1.0.40: repo hooks behind an opt-in in `-p`).
 * - `disableAllHooks: true` in `$COPILOT_HOME/settings.json` turns every hook off.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isWithinDirectory, realPathOrResolved, type HookActivationCheck } from '@agentgov/core';
import { copilotHome } from './home.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

type JsonRead = { value: Json } | { missing: true } | { error: string };

/**
 * Copilot CLI's config.json opens with `//` comment lines ("This file is managed automatically"):
 * whole-line comments are dropped before parsing; anything else that is not JSON is reported.
 */
export function readCopilotJson(file: string): JsonRead {
  if (!existsSync(file)) return { missing: true };
  try {
    const text = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('//'))
      .join('\n');
    if (text.trim() === '') return { value: {} };
    const value: unknown = JSON.parse(text);
    return isObject(value) ? { value } : { error: `${file} does not hold a JSON object` };
  } catch (error) {
    return { error: `${file} could not be read as JSON (${(error as Error).message})` };
  }
}

export const copilotConfigFile = (env: NodeJS.ProcessEnv): string => join(copilotHome(env), 'config.json');
export const copilotSettingsFile = (env: NodeJS.ProcessEnv): string => join(copilotHome(env), 'settings.json');

/** The `trustedFolders` entry of config.json covering the project, if any. */
export function trustedFolderOf(projectDir: string, env: NodeJS.ProcessEnv): { folder?: string } | { error: string } {
  const read = readCopilotJson(copilotConfigFile(env));
  if ('error' in read) return read;
  const folders = 'value' in read && Array.isArray(read.value['trustedFolders']) ? read.value['trustedFolders'] : [];
  const project = realPathOrResolved(projectDir);
  const folder = folders.find(
    (f): f is string => typeof f === 'string' && isWithinDirectory(realPathOrResolved(f), project),
  );
  return folder === undefined ? {} : { folder };
}

function hooksOn(env: NodeJS.ProcessEnv): HookActivationCheck {
  const name = 'hooks enabled';
  const file = copilotSettingsFile(env);
  const read = readCopilotJson(file);
  if ('error' in read) return { name, status: 'unknown', detail: read.error };
  if ('value' in read && read.value['disableAllHooks'] === true) {
    return {
      name,
      status: 'fail',
      detail: `disableAllHooks is true in ${file}: Copilot CLI runs no hook`,
      remedy: `remove "disableAllHooks" from ${file}`,
    };
  }
  return { name, status: 'ok', detail: `disableAllHooks is not set in ${file}` };
}

/** The activation checks of the hook installed in `scope` (see HookInstaller.activation). */
export function copilotActivation(
  projectDir: string,
  scope: string,
  hooksFile: string,
  env: NodeJS.ProcessEnv,
): HookActivationCheck[] {
  const checks = [hooksOn(env)];
  if (scope === 'user') {
    checks.push({
      name: 'hook file read in every mode',
      status: 'ok',
      detail:
        `Copilot CLI loads ${hooksFile} interactively and with -p, in every project you run it in; ` +
        '`--scope project` limits the hook to this project, but `copilot -p` ignores it until the folder is trusted',
    });
    return checks;
  }
  const name = 'repo hooks loaded with -p';
  const optIn = ['GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS', 'COPILOT_ALLOW_ALL'].find((v) => env[v] === 'true');
  if (optIn) {
    checks.push({ name, status: 'ok', detail: `${optIn}=true is set` });
    return checks;
  }
  const configFile = copilotConfigFile(env);
  const trusted = trustedFolderOf(projectDir, env);
  if ('error' in trusted) {
    checks.push({ name, status: 'unknown', detail: trusted.error, remedy: `fix ${configFile}` });
  } else if (trusted.folder !== undefined) {
    checks.push({ name, status: 'ok', detail: `${configFile} trusts ${trusted.folder}` });
  } else {
    checks.push({
      name,
      status: 'fail',
      detail:
        `no trustedFolders entry of ${configFile} covers ` +
        `${projectDir} and GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS is not set: \`copilot ` +
        `-p\` ignores ${hooksFile}`,
      remedy:
        `trust the folder (start \`copilot\` in ${projectDir} once and confirm the folder trust prompt), or export ` +
        (`GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true where you run \`copilot -p\`, ` +
          `or install the hook for every project instead: `) +
        `agentgov init copilot-cli --scope user --project ${projectDir}`,
    });
  }
  return checks;
}
