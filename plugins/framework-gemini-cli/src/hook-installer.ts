import { AgentgovError, installMatcherGroupHook, matcherGroupGateCommands, type HookInstaller } from '@agentgov/core';
import { geminiActivation, HOOK_NAME } from './activation.js';
import { geminiSettingsFile } from './mcp-config.js';

/**
 * `user` first: Gemini CLI reads `~/.gemini/settings.json` in every mode, while a project's
 * `.gemini/settings.json` is ignored until the folder is trusted (and `--skip-trust`, the flag its
 * headless error message suggests, never loads it).
 */
export const SCOPES = ['user', 'project'];

function settingsFileOf(projectDir: string, scope: string, env: NodeJS.ProcessEnv): string {
  if (!SCOPES.includes(scope))
    throw new AgentgovError(
      'E_INVALID_ARGUMENT',
      `unknown settings scope '${scope}'; gemini-cli has ${SCOPES.join(', ')}`,
      { scope },
    );
  return geminiSettingsFile(projectDir, scope, env);
}

/**
 * `hooks.BeforeTool: [{matcher: ".*", hooks: [{type: "command", command, name: "agentgov", timeout}]}]` in
 * settings.json.
 */
export const geminiHookInstaller: HookInstaller = {
  agent: 'gemini-cli',
  format: 'gemini-cli',
  scopes: SCOPES,
  testedWith: 'Gemini CLI 0.61.0',
  async install(projectDir, gateCommand, options = {}) {
    const settingsFile = settingsFileOf(projectDir, options.scope ?? SCOPES[0]!, options.env ?? process.env);
    const hook = { event: 'BeforeTool', matcher: '.*', extra: { name: HOOK_NAME, timeout: 30000 } };
    return { ...installMatcherGroupHook(settingsFile, hook, gateCommand), settingsFile };
  },
  async installed(projectDir, options = {}) {
    const settingsFile = settingsFileOf(projectDir, options.scope ?? SCOPES[0]!, options.env ?? process.env);
    return { settingsFile, commands: matcherGroupGateCommands(settingsFile, 'BeforeTool') };
  },
  async activation(projectDir, options = {}) {
    const env = options.env ?? process.env;
    const scope = options.scope ?? SCOPES[0]!;
    const settingsFile = settingsFileOf(projectDir, scope, env);
    return geminiActivation(projectDir, scope, settingsFile, matcherGroupGateCommands(settingsFile, 'BeforeTool'), env);
  },
};
