import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Copilot CLI's home: `$COPILOT_HOME`, default `~/.copilot` (config, hooks/, session-state/). */
export function copilotHome(env: NodeJS.ProcessEnv): string {
  const override = env['COPILOT_HOME'];
  return override ? resolve(override) : join(env['HOME'] ?? homedir(), '.copilot');
}
