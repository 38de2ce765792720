import { AgentgovError, installMatcherGroupHook, matcherGroupGateCommands, type HookInstaller } from '@agentgov/core';
import { geminiSettingsFile } from './mcp-config.js';

export const SCOPES = ['project', 'user'];

function settingsFileOf(projectDir: string, scope: string): string {
  if (!SCOPES.includes(scope)) throw new AgentgovError('E_INVALID_ARGUMENT', `unknown settings scope '${scope}'; gemini-cli has ${SCOPES.join(', ')}`, { scope });
  return geminiSettingsFile(projectDir, scope, process.env);
}

/** `hooks.BeforeTool: [{matcher: ".*", hooks: [{type: "command", command, name: "agentgov", timeout}]}]` in settings.json. */
export const geminiHookInstaller: HookInstaller = {
  agent: 'gemini-cli',
  format: 'gemini-cli',
  scopes: SCOPES,
  async install(projectDir, gateCommand, options = {}) {
    const settingsFile = settingsFileOf(projectDir, options.scope ?? SCOPES[0]!);
    return { ...installMatcherGroupHook(settingsFile, { event: 'BeforeTool', matcher: '.*', extra: { name: 'agentgov', timeout: 30000 } }, gateCommand), settingsFile };
  },
  async installed(projectDir, options = {}) {
    const settingsFile = settingsFileOf(projectDir, options.scope ?? SCOPES[0]!);
    return { settingsFile, commands: matcherGroupGateCommands(settingsFile, 'BeforeTool') };
  },
};
