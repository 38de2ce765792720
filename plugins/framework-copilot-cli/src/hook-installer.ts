import { join } from 'node:path';
import { AgentgovError, flatGateCommands, installFlatHook, type HookInstaller } from '@agentgov/core';
import { copilotHome } from './home.js';

/** Copilot CLI loads every hook file of `.github/hooks/` (`project`) and of `$COPILOT_HOME/hooks/` (`user`); agentgov writes its own. */
export const SCOPES = ['project', 'user'];

export function copilotHooksFile(projectDir: string, scope: string, env: NodeJS.ProcessEnv = process.env): string {
  if (scope === 'user') return join(copilotHome(env), 'hooks', 'agentgov.json');
  if (scope === 'project') return join(projectDir, '.github', 'hooks', 'agentgov.json');
  throw new AgentgovError('E_INVALID_ARGUMENT', `unknown settings scope '${scope}'; copilot-cli has ${SCOPES.join(', ')}`, { scope });
}

/** `{version: 1, hooks: {preToolUse: [{type: "command", bash: command, timeoutSec: 30}]}}`. */
export const copilotHookInstaller: HookInstaller = {
  agent: 'copilot-cli',
  format: 'copilot-cli',
  scopes: SCOPES,
  async install(projectDir, gateCommand, options = {}) {
    const settingsFile = copilotHooksFile(projectDir, options.scope ?? SCOPES[0]!);
    return { ...installFlatHook(settingsFile, { events: ['preToolUse'], commandKey: 'bash', extra: { type: 'command', timeoutSec: 30 } }, gateCommand), settingsFile };
  },
  async installed(projectDir, options = {}) {
    const settingsFile = copilotHooksFile(projectDir, options.scope ?? SCOPES[0]!);
    return { settingsFile, commands: flatGateCommands(settingsFile, ['preToolUse'], 'bash') };
  },
};
