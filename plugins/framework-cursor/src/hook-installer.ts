import { join } from 'node:path';
import { AgentgovError, flatGateCommands, installFlatHook, type HookInstaller } from '@agentgov/core';
import { cursorDir } from './home.js';

export const SCOPES = ['project', 'user'];
/** The events that can stop a call before it runs. */
export const EVENTS = ['beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile'];

export function cursorHooksFile(projectDir: string, scope: string, env: NodeJS.ProcessEnv = process.env): string {
  if (scope === 'user') return join(cursorDir(env), 'hooks.json');
  if (scope === 'project') return join(projectDir, '.cursor', 'hooks.json');
  throw new AgentgovError('E_INVALID_ARGUMENT', `unknown settings scope '${scope}'; cursor has ${SCOPES.join(', ')}`, {
    scope,
  });
}

/** `{version: 1, hooks: {beforeShellExecution|beforeMCPExecution|beforeReadFile: [{command}]}}` in hooks.json. */
export const cursorHookInstaller: HookInstaller = {
  agent: 'cursor',
  format: 'cursor',
  scopes: SCOPES,
  async install(projectDir, gateCommand, options = {}) {
    const settingsFile = cursorHooksFile(projectDir, options.scope ?? SCOPES[0]!, options.env);
    return { ...installFlatHook(settingsFile, { events: EVENTS }, gateCommand), settingsFile };
  },
  async installed(projectDir, options = {}) {
    const settingsFile = cursorHooksFile(projectDir, options.scope ?? SCOPES[0]!, options.env);
    return { settingsFile, commands: flatGateCommands(settingsFile, EVENTS) };
  },
  /**
   * Cursor documents no trust or review step for hooks: it reads the project's and the user's
   * hooks.json on start. Cursor has no package on the npm registry, so this is what its documentation
   * says, checked against simulated payloads only — never a run of the real agent.
   */
  async activation(projectDir, options = {}) {
    const file = cursorHooksFile(projectDir, options.scope ?? SCOPES[0]!, options.env);
    return [
      {
        name: 'hooks file read',
        status: 'ok',
        detail:
          `Cursor reads ${file} on start (as documented; agentgov's tests simulate ` +
          `Cursor, which has no registry package)`,
      },
    ];
  },
};
