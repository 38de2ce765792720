import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Codex's home: `$CODEX_HOME`, default `~/.codex` (config.toml, hooks.json, sessions/). */
export function codexHome(env: NodeJS.ProcessEnv): string {
  const override = env['CODEX_HOME'];
  return override ? resolve(override) : join(env['HOME'] ?? homedir(), '.codex');
}
