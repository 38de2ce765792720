import { isAbsolute, resolve } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { systemDbPath } from '../paths/home.js';

/**
 * Where system.db lives: an explicit path (`status --db`), else config `governance.db` (relative
 * to the config file's directory), else `$AGENTGOV_HOME/system.db`.
 */
export function governanceDbPath(
  loaded: Pick<LoadedConfig, 'config' | 'baseDir'> | undefined,
  explicit?: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (explicit) return resolve(explicit);
  const configured = loaded?.config.governance.db;
  if (configured) return isAbsolute(configured) ? configured : resolve(loaded.baseDir, configured);
  return systemDbPath(env);
}
