/**
 * What Gemini CLI (tested with 0.61) needs before it calls a BeforeTool hook, read from its own
 * files the way it reads them (packages/core/src/utils/trust.ts, packages/cli/src/config/settings.ts,
 * packages/core/src/hooks/hookRegistry.ts):
 *
 * - Project settings (`<project>/.gemini/settings.json`, hooks included) are merged only when the
 *   workspace is trusted at the moment settings load: `GEMINI_CLI_TRUST_WORKSPACE=true` in the
 *   environment, folder trust switched off (`security.folderTrust.enabled: false`), or a
 *   `TRUST_FOLDER`/`TRUST_PARENT` rule of `trustedFolders.json` covering the project. `--skip-trust`
 *   sets the variable only after settings were loaded, so it never loads project hooks.
 * - Hooks from any settings file run only in a trusted folder: a `DO_NOT_TRUST` rule (or
 *   `GEMINI_CLI_TRUST_WORKSPACE=false`, `GEMINI_RESTRICTED_MODE=true`) turns every hook off.
 * - `hooksConfig.enabled: false` turns hooks off; a hook named in `hooksConfig.disabled` is skipped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isWithinDirectory, realPathOrResolved, type HookActivationCheck } from '@agentgov/core';
import { geminiDir } from './home.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The hook name `init` writes (`hooksConfig.disabled` lists hooks by name or command). */
export const HOOK_NAME = 'agentgov';

export const trustedFoldersFile = (env: NodeJS.ProcessEnv): string =>
  env['GEMINI_CLI_TRUSTED_FOLDERS_PATH'] || join(geminiDir(env), 'trustedFolders.json');

type JsonRead = { value: Json } | { missing: true } | { error: string };

function readJson(file: string): JsonRead {
  if (!existsSync(file)) return { missing: true };
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isObject(value) ? { value } : { error: `${file} does not hold a JSON object` };
  } catch (error) {
    return { error: `${file} could not be read as JSON (${(error as Error).message})` };
  }
}

/** Gemini's own rule: the longest rule path covering the project decides; TRUST_PARENT covers its parent. */
export function folderTrustRule(rules: Json, projectDir: string): { rule: string; level: string } | undefined {
  const project = realPathOrResolved(projectDir);
  let best: { rule: string; level: string } | undefined;
  for (const [rule, level] of Object.entries(rules)) {
    if (typeof level !== 'string') continue;
    const effective = level === 'TRUST_PARENT' ? dirname(rule) : rule;
    if (isWithinDirectory(realPathOrResolved(effective), project) && (!best || rule.length > best.rule.length))
      best = { rule, level };
  }
  return best;
}

type Trust =
  { trusted: true; why: string } | { trusted: false; why: string; distrusted: boolean } | { unknown: string };

/** Whether Gemini CLI treats the project as a trusted workspace, and why. */
export function workspaceTrust(projectDir: string, env: NodeJS.ProcessEnv): Trust {
  if (env['GEMINI_RESTRICTED_MODE'] === 'true')
    return { trusted: false, why: 'GEMINI_RESTRICTED_MODE=true is set', distrusted: true };
  if (env['GEMINI_CLI_TRUST_WORKSPACE'] === 'false')
    return { trusted: false, why: 'GEMINI_CLI_TRUST_WORKSPACE=false is set', distrusted: true };
  if (env['GEMINI_CLI_TRUST_WORKSPACE'] === 'true')
    return { trusted: true, why: 'GEMINI_CLI_TRUST_WORKSPACE=true is set' };
  const settingsFile = join(geminiDir(env), 'settings.json');
  const settings = readJson(settingsFile);
  if ('value' in settings) {
    const security = settings.value['security'];
    const folderTrust = isObject(security) ? security['folderTrust'] : undefined;
    if (isObject(folderTrust) && folderTrust['enabled'] === false)
      return { trusted: true, why: `folder trust is switched off in ${settingsFile}` };
  }
  const file = trustedFoldersFile(env);
  const rules = readJson(file);
  if ('error' in rules) return { unknown: rules.error };
  const match = 'value' in rules ? folderTrustRule(rules.value, projectDir) : undefined;
  if (!match) return { trusted: false, why: `no rule of ${file} covers ${projectDir}`, distrusted: false };
  if (match.level === 'DO_NOT_TRUST')
    return { trusted: false, why: `${file} marks ${match.rule} DO_NOT_TRUST`, distrusted: true };
  if (match.level === 'TRUST_FOLDER' || match.level === 'TRUST_PARENT')
    return { trusted: true, why: `${file} marks ${match.rule} ${match.level}` };
  return { unknown: `${file} has the unknown trust level '${match.level}' for ${match.rule}` };
}

/** `hooksConfig` of a settings file: hooks switched off, or the agentgov hook disabled by name or command. */
function hooksSwitchedOff(settingsFile: string, commands: string[]): HookActivationCheck {
  const name = 'hooks enabled';
  const read = readJson(settingsFile);
  if ('error' in read) return { name, status: 'unknown', detail: read.error };
  const config = 'value' in read ? read.value['hooksConfig'] : undefined;
  if (isObject(config) && config['enabled'] === false) {
    return {
      name,
      status: 'fail',
      detail: `hooksConfig.enabled is false in ${settingsFile}: Gemini CLI runs no hook`,
      remedy: `set "hooksConfig": {"enabled": true} in ${settingsFile}`,
    };
  }
  const disabled = isObject(config) && Array.isArray(config['disabled']) ? config['disabled'] : [];
  const hit = disabled.find((entry) => entry === HOOK_NAME || commands.includes(entry as string));
  if (hit !== undefined)
    return {
      name,
      status: 'fail',
      detail: `hooksConfig.disabled in ${settingsFile} lists '${String(hit)}'`,
      remedy: `remove '${String(hit)}' from hooksConfig.disabled in ${settingsFile}`,
    };
  return { name, status: 'ok', detail: `hooks are on in ${settingsFile}` };
}

/** The activation checks of the hook installed in `scope` (see HookInstaller.activation). */
export function geminiActivation(
  projectDir: string,
  scope: string,
  settingsFile: string,
  commands: string[],
  env: NodeJS.ProcessEnv,
): HookActivationCheck[] {
  const checks: HookActivationCheck[] = [];
  const userSettings = join(geminiDir(env), 'settings.json');
  checks.push(hooksSwitchedOff(userSettings, commands));
  if (scope === 'project') checks.push(hooksSwitchedOff(settingsFile, commands));
  const trust = workspaceTrust(projectDir, env);
  const trustFile = trustedFoldersFile(env);
  const userScope = `agentgov init gemini-cli --scope user --project ${projectDir}`;
  if ('unknown' in trust) {
    checks.push({
      name: 'workspace trusted',
      status: 'unknown',
      detail: trust.unknown,
      remedy: `fix ${trustFile}; Gemini CLI refuses to start while it is invalid`,
    });
  } else if (trust.trusted) {
    checks.push({ name: 'workspace trusted', status: 'ok', detail: trust.why });
  } else if (trust.distrusted) {
    checks.push({
      name: 'workspace trusted',
      status: 'fail',
      detail: `${trust.why}: Gemini CLI runs no hook at all in an untrusted folder`,
      remedy:
        `trust the folder (run \`gemini\` in ` +
        `${projectDir} and choose "Trust folder", or set "` +
        `${projectDir}": "TRUST_FOLDER" in ${trustFile})`,
    });
  } else if (scope === 'project') {
    checks.push({
      name: 'project settings loaded',
      status: 'fail',
      detail:
        `${trust.why}: Gemini CLI ignores ${settingsFile} (hooks included); \`--skip-trust\` ` +
        `does not load it either`,
      remedy:
        `trust the folder (run \`gemini\` in ` +
        `${projectDir} once and choose "Trust folder", or set "` +
        `${projectDir}": "TRUST_FOLDER" in ${trustFile}), ` +
        (`or export GEMINI_CLI_TRUST_WORKSPACE=true for headless runs, or install ` +
          `the hook for every project instead: ` +
          `${userScope}`),
    });
  } else {
    checks.push({
      name: 'workspace trusted',
      status: 'ok',
      detail:
        `${trust.why}; hooks of ${settingsFile} run in every project once Gemini ` +
        `CLI starts there (headless: \`--skip-trust\` or ` +
        ('GEMINI_CLI_TRUST_WORKSPACE=true; interactive: it asks to trust the folder, ' +
          'and declining turns every hook off); ') +
        '`--scope project` limits the hook to this project, but Gemini CLI ignores it until the folder is trusted',
    });
  }
  return checks;
}
