import { join } from 'node:path';
import {
  AgentgovError,
  installMatcherGroupHook,
  matcherGroupGateCommands,
  readJsonSettings,
  type HookActivationCheck,
  type HookInstaller,
} from '@agentgov/core';
import { claudeConfigDir } from './home.js';

/**
 * Claude Code's settings scopes: `local` = `.claude/settings.local.json` (personal, not committed —
 * the default, since the hook names this machine's paths), `project` = `.claude/settings.json`
 * (shared), `user` = `settings.json` of the configuration directory (`~/.claude`, `$CLAUDE_CONFIG_DIR`).
 */
export const SCOPES = ['local', 'project', 'user'];

/** The Claude Code versions this installer's hook locations were tested with (e2e/agents). */
export const TESTED_WITH = 'Claude Code 2.1.332';

/** Where an administrator's managed settings live on this platform (they override every other layer). */
export function claudeManagedSettingsFile(env: NodeJS.ProcessEnv = process.env): string {
  if (env['AGENTGOV_CLAUDE_MANAGED_SETTINGS']) return env['AGENTGOV_CLAUDE_MANAGED_SETTINGS'];
  return process.platform === 'darwin'
    ? '/Library/Application Support/ClaudeCode/managed-settings.json'
    : '/etc/claude-code/managed-settings.json';
}

export function claudeSettingsFile(projectDir: string, scope: string, env: NodeJS.ProcessEnv = process.env): string {
  if (scope === 'user') return join(claudeConfigDir(env), 'settings.json');
  if (scope === 'project') return join(projectDir, '.claude', 'settings.json');
  if (scope === 'local') return join(projectDir, '.claude', 'settings.local.json');
  throw new AgentgovError(
    'E_INVALID_ARGUMENT',
    `unknown settings scope '${scope}'; claude-code has ${SCOPES.join(', ')}`,
    { scope },
  );
}

/** A settings layer as Claude Code reads it, or the reason it cannot be read. */
function layer(file: string): { file: string; settings?: Record<string, unknown>; error?: string } {
  try {
    return { file, settings: readJsonSettings(file) };
  } catch (error) {
    return { file, error: (error as Error).message };
  }
}

/**
 * Claude Code reads all three scopes' settings files in interactive and headless (`-p`) sessions
 * alike, with no separate review of hooks; what keeps it from calling the hook is a settings layer
 * with `disableAllHooks`, managed settings with `allowManagedHooksOnly`, or a settings file it
 * cannot parse.
 */
function activation(projectDir: string, scope: string, env: NodeJS.ProcessEnv): HookActivationCheck[] {
  const file = claudeSettingsFile(projectDir, scope, env);
  const managed = layer(claudeManagedSettingsFile(env));
  const layers = [managed, ...SCOPES.map((s) => layer(claudeSettingsFile(projectDir, s, env)))];
  const checks: HookActivationCheck[] = [];
  const broken = layers.filter((l) => l.error);
  checks.push(
    broken.length
      ? {
          name: 'settings readable',
          status: 'fail',
          detail: broken.map((l) => l.error).join('; '),
          remedy: `fix ${broken.map((l) => l.file).join(', ')}`,
        }
      : {
          name: 'settings readable',
          status: 'ok',
          detail:
            `Claude Code reads ${file} in interactive and headless (-p) sessions started ` +
            `in ${scope === 'user' ? 'any project' : projectDir}`,
        },
  );
  const disabling = layers.filter((l) => l.settings?.['disableAllHooks'] === true);
  checks.push(
    disabling.length
      ? {
          name: 'hooks enabled',
          status: 'fail',
          detail: `${disabling.map((l) => l.file).join(', ')} sets "disableAllHooks": true: Claude Code runs no hook`,
          remedy: `remove "disableAllHooks" from ${disabling.map((l) => l.file).join(', ')}`,
        }
      : { name: 'hooks enabled', status: 'ok', detail: 'no settings layer sets "disableAllHooks"' },
  );
  if (managed.settings?.['allowManagedHooksOnly'] === true) {
    checks.push({
      name: 'hooks from this file allowed',
      status: 'fail',
      detail: `${managed.file} sets "allowManagedHooksOnly": true: Claude Code ignores hooks outside managed settings`,
      remedy: `ask your administrator to add the agentgov hook to ${managed.file}`,
    });
  }
  return checks;
}

/** `hooks.PreToolUse: [{matcher: "*", hooks: [{type: "command", command}]}]` in the scope's settings file. */
export const claudeHookInstaller: HookInstaller = {
  agent: 'claude-code',
  format: 'claude-code',
  scopes: SCOPES,
  testedWith: TESTED_WITH,
  async install(projectDir, gateCommand, options = {}) {
    const settingsFile = claudeSettingsFile(projectDir, options.scope ?? SCOPES[0]!, options.env);
    return {
      ...installMatcherGroupHook(settingsFile, { event: 'PreToolUse', matcher: '*' }, gateCommand),
      settingsFile,
    };
  },
  async installed(projectDir, options = {}) {
    const settingsFile = claudeSettingsFile(projectDir, options.scope ?? SCOPES[0]!, options.env);
    return { settingsFile, commands: matcherGroupGateCommands(settingsFile, 'PreToolUse') };
  },
  async activation(projectDir, options = {}) {
    return activation(projectDir, options.scope ?? SCOPES[0]!, options.env ?? process.env);
  },
};
