import { chmodSync, lstatSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

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

/**
 * `mkdir -p` with a bound: each missing directory from the deepest existing ancestor down is made
 * with one plain mkdir, so a path where directories cannot be made fails at once with the reason.
 * (Node's own recursive mkdir spins forever at 100% CPU under `/proc/...`: ENOENT for the child,
 * EEXIST for the parent, again; the gate hung there.) Returns the directories it created.
 */
export function makeDirectories(dir: string, mode: number = PRIVATE_DIR_MODE): string[] {
  const target = resolve(dir);
  const missing: string[] = [];
  let current = target;
  for (;;) {
    try {
      if (!statSync(current).isDirectory())
        throw Object.assign(new Error(`${current} exists and is not a directory`), { code: 'ENOTDIR' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    missing.unshift(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const directory of missing) {
    try {
      mkdirSync(directory, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(directory).isDirectory()) continue;
      throw Object.assign(new Error(`cannot create the directory ${directory}: ${(error as Error).message}`), {
        code: (error as NodeJS.ErrnoException).code,
      });
    }
  }
  return missing;
}

/**
 * Why a per-user directory or file cannot be trusted, or undefined when it can: it must be ours
 * and neither group- nor other-writable (and a directory must not be a symbolic link). A missing
 * path is fine: it will be created private.
 */
export function untrustedReason(path: string, what: string): string | undefined {
  let stat;
  try {
    stat = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return `${what} ${path} cannot be checked (${(error as Error).message})`;
  }
  if (stat.isSymbolicLink()) {
    try {
      stat = statSync(path);
    } catch (error) {
      return `${what} ${path} is a symbolic link that cannot be followed (${(error as Error).message})`;
    }
  }
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (uid !== undefined && stat.uid !== uid)
    return `${what} ${path} is owned by uid ${stat.uid}, not by you (uid ${uid})`;
  if ((stat.mode & 0o022) !== 0)
    return (
      `${what} ${path} is writable by ${stat.mode & 0o002 ? 'anyone' : 'its group'} ` +
      `(mode 0${(stat.mode & 0o777).toString(8)}); make it private: chmod ` +
      `${stat.isDirectory() ? '700' : '600'} ` +
      `${path}`
    );
  return undefined;
}

/**
 * `$AGENTGOV_HOME`, created private (0700) when missing. An existing one that another user owns or
 * that the group or others can write is refused (an error naming it), never used nor silently
 * chmod-ed: whoever can write there could plant a config, a gate endpoint or a gate cache.
 */
export function ensurePrivateHome(env: NodeJS.ProcessEnv = process.env): string {
  const home = agentgovHome(env);
  const problem = untrustedReason(home, 'AGENTGOV_HOME');
  // A plain Error with the catalog's code (the CLI reports it as one): the gate path loads no error catalog.
  if (problem) throw Object.assign(new Error(`refusing to use ${problem}`), { code: 'E_CONFIG_INVALID' });
  const created = makeDirectories(home, PRIVATE_DIR_MODE);
  // Made by us (umask may have widened it): private.
  for (const dir of created) if (dir === home) chmodSync(home, PRIVATE_DIR_MODE);
  return home;
}
