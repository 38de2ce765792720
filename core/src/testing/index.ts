import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FRAMEWORK_HOME_VARIABLES } from './framework-homes.js';

export { makeTempDir } from './temp-dir.js';

/** Writes a tree of files (`relative path → content`) under `root`; a fixture in one call. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

/** Environment for a child process with every per-user location inside `home`. */
export function isolatedEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    AGENTGOV_HOME: join(home, '.agentgov'),
    AGENTX_HOME: join(home, '.agentx'),
    ...extra,
  };
  if (!('AGENTGOV_CONFIG' in extra)) delete env['AGENTGOV_CONFIG'];
  for (const name of FRAMEWORK_HOME_VARIABLES) if (!(name in extra)) delete env[name];
  return env;
}
export * from './memory-retrieval-index.js';
export * from './python-venv.js';
export { FRAMEWORK_HOME_VARIABLES } from './framework-homes.js';
export * from './node-packages.js';
export * from './governance-data.js';
export { withDirectoryLock } from './directory-lock.js';
export * from './packed-install.js';
export * from './mcp-registration.js';
