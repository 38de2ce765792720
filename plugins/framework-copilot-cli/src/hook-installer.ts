import { join } from 'node:path';
import { AgentgovError, flatGateCommands, installFlatHook, type HookInstaller } from '@agentgov/core';
import { copilotActivation } from './activation.js';
import { copilotHome } from './home.js';

/**
 * Copilot CLI loads every hook file of `$COPILOT_HOME/hooks/` (`user`) and of `.github/hooks/`
 * (`project`); agentgov writes its own. `user` first: prompt mode (`copilot -p`) ignores a
 * project's hooks unless the folder is trusted or an opt-in variable is set.
 */
export const SCOPES = ['user', 'project'];

export function copilotHooksFile(projectDir: string, scope: string, env: NodeJS.ProcessEnv = process.env): string {
  if (scope === 'user') return join(copilotHome(env), 'hooks', 'agentgov.json');
  if (scope === 'project') return join(projectDir, '.github', 'hooks', 'agentgov.json');
  throw new AgentgovError(
    'E_INVALID_ARGUMENT',
    `unknown settings scope '${scope}'; copilot-cli has ${SCOPES.join(', ')}`,
    { scope },
  );
}

/** `{version: 1, hooks: {preToolUse: [{type: "command", bash: command, timeoutSec: 30}]}}`. */
export const copilotHookInstaller: HookInstaller = {
  agent: 'copilot-cli',
  format: 'copilot-cli',
  scopes: SCOPES,
  testedWith: 'Copilot CLI 1.0.102',
  async install(projectDir, gateCommand, options = {}) {
    const settingsFile = copilotHooksFile(projectDir, options.scope ?? SCOPES[0]!, options.env ?? process.env);
    const hook = { events: ['preToolUse'], commandKey: 'bash', extra: { type: 'command', timeoutSec: 30 } };
    return { ...installFlatHook(settingsFile, hook, gateCommand), settingsFile };
  },
  async installed(projectDir, options = {}) {
    const settingsFile = copilotHooksFile(projectDir, options.scope ?? SCOPES[0]!, options.env ?? process.env);
    return { settingsFile, commands: flatGateCommands(settingsFile, ['preToolUse'], 'bash') };
  },
  async activation(projectDir, options = {}) {
    const env = options.env ?? process.env;
    const scope = options.scope ?? SCOPES[0]!;
    return copilotActivation(projectDir, scope, copilotHooksFile(projectDir, scope, env), env);
  },
};
