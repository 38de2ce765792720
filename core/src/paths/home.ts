import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** `$AGENTGOV_HOME`, default `~/.agentgov`: every per-user file (config, system.db, gate socket, logs) lives here. */
export function agentgovHome(env: NodeJS.ProcessEnv = process.env): string {
  const override = env['AGENTGOV_HOME'];
  return override ? resolve(override) : join(env['HOME'] ?? homedir(), '.agentgov');
}

/** `$AGENTX_HOME`, default `~/.agentx`: where agentx-code keeps its projects and transcripts. */
export function agentxHome(env: NodeJS.ProcessEnv = process.env): string {
  const override = env['AGENTX_HOME'];
  return override ? resolve(override) : join(env['HOME'] ?? homedir(), '.agentx');
}

export const userConfigPath = (env: NodeJS.ProcessEnv = process.env): string => join(agentgovHome(env), 'config.yaml');
export const systemDbPath = (env: NodeJS.ProcessEnv = process.env): string => join(agentgovHome(env), 'system.db');
export const logsDir = (env: NodeJS.ProcessEnv = process.env): string => join(agentgovHome(env), 'logs');

/** Per-user directories are private: 0700. */
export const PRIVATE_DIR_MODE = 0o700;
/** Per-user files and sockets are private: 0600. */
export const PRIVATE_FILE_MODE = 0o600;
