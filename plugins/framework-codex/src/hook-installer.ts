import { join } from 'node:path';
import { AgentgovError, installMatcherGroupHook, matcherGroupGateCommands, type HookInstaller } from '@agentgov/core';
import { codexHome } from './home.js';

/** Codex's hooks.json beside its config layers: `project` = `<project>/.codex/hooks.json`, `user` = `$CODEX_HOME/hooks.json`. */
export const SCOPES = ['project', 'user'];

export function codexHooksFile(projectDir: string, scope: string, env: NodeJS.ProcessEnv = process.env): string {
  if (scope === 'user') return join(codexHome(env), 'hooks.json');
  if (scope === 'project') return join(projectDir, '.codex', 'hooks.json');
  throw new AgentgovError('E_INVALID_ARGUMENT', `unknown settings scope '${scope}'; codex has ${SCOPES.join(', ')}`, { scope });
}

/**
 * `hooks.PreToolUse: [{hooks: [{type: "command", command}]}]` — no matcher, so every tool call
 * (shell, apply_patch, MCP) reaches the gate. Codex runs a new command hook only once it has been
 * reviewed and trusted (`/hooks`).
 */
export const codexHookInstaller: HookInstaller = {
  agent: 'codex',
  format: 'codex',
  scopes: SCOPES,
  async install(projectDir, gateCommand, options = {}) {
    const settingsFile = codexHooksFile(projectDir, options.scope ?? SCOPES[0]!);
    return { ...installMatcherGroupHook(settingsFile, { event: 'PreToolUse' }, gateCommand), settingsFile };
  },
  async installed(projectDir, options = {}) {
    const settingsFile = codexHooksFile(projectDir, options.scope ?? SCOPES[0]!);
    return { settingsFile, commands: matcherGroupGateCommands(settingsFile, 'PreToolUse') };
  },
};
