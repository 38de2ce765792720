import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Claude Code's configuration directory: `$CLAUDE_CONFIG_DIR`, default `~/.claude`. */
export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
  const override = env['CLAUDE_CONFIG_DIR'];
  return override ? resolve(override) : join(env['HOME'] ?? homedir(), '.claude');
}
