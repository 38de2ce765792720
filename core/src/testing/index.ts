import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FRAMEWORK_HOME_VARIABLES } from './framework-homes.js';

/**
 * A fresh temp directory. Under mocha it lives inside the run's isolated root
 * (`AGENTGOV_TEST_TMP`, set by isolate-home), which the root `afterAll` hook removes once every
 * suite is done: no suite can delete a directory another suite still uses.
 */
export function makeTempDir(prefix = 'agentgov-'): string {
  const base = process.env['AGENTGOV_TEST_TMP'];
  if (base) mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base ?? tmpdir(), prefix));
}

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
