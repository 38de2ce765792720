import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Gemini CLI's user directory: `.gemini` under `$GEMINI_CLI_HOME` (Gemini CLI's own stand-in
 * for the home directory), default `~/.gemini`.
 */
export function geminiDir(env: NodeJS.ProcessEnv): string {
  const override = env['GEMINI_CLI_HOME'];
  return join(override ? resolve(override) : (env['HOME'] ?? homedir()), '.gemini');
}
