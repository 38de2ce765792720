import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Cursor's user directory `~/.cursor` (hooks.json, mcp.json, projects/); Cursor documents no variable that moves it.
 */
export function cursorDir(env: NodeJS.ProcessEnv): string {
  return join(env['HOME'] ?? homedir(), '.cursor');
}
