import { join } from 'node:path';
import { AgentgovError, installMatcherGroupHook, matcherGroupGateCommands, type HookInstaller } from '@agentgov/core';
import { claudeConfigDir } from './home.js';

/**
 * Claude Code's settings scopes: `local` = `.claude/settings.local.json` (personal, not committed —
 * the default, since the hook names this machine's paths), `project` = `.claude/settings.json`
 * (shared), `user` = `settings.json` of the configuration directory (`~/.claude`, `$CLAUDE_CONFIG_DIR`).
 */
export const SCOPES = ['local', 'project', 'user'];

export function claudeSettingsFile(projectDir: string, scope: string, env: NodeJS.ProcessEnv = process.env): string {
  if (scope === 'user') return join(claudeConfigDir(env), 'settings.json');
  if (scope === 'project') return join(projectDir, '.claude', 'settings.json');
  if (scope === 'local') return join(projectDir, '.claude', 'settings.local.json');
  throw new AgentgovError('E_INVALID_ARGUMENT', `unknown settings scope '${scope}'; claude-code has ${SCOPES.join(', ')}`, { scope });
}

/** `hooks.PreToolUse: [{matcher: "*", hooks: [{type: "command", command}]}]` in the scope's settings file. */
export const claudeHookInstaller: HookInstaller = {
  agent: 'claude-code',
  format: 'claude-code',
  scopes: SCOPES,
  async install(projectDir, gateCommand, options = {}) {
    const settingsFile = claudeSettingsFile(projectDir, options.scope ?? SCOPES[0]!);
    return { ...installMatcherGroupHook(settingsFile, { event: 'PreToolUse', matcher: '*' }, gateCommand), settingsFile };
  },
  async installed(projectDir, options = {}) {
    const settingsFile = claudeSettingsFile(projectDir, options.scope ?? SCOPES[0]!);
    return { settingsFile, commands: matcherGroupGateCommands(settingsFile, 'PreToolUse') };
  },
};
