import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const created: string[] = [];

/** A fresh temp directory, removed when `cleanupTempDirs` runs (call it in an `after` hook). */
export function makeTempDir(prefix = 'agentgov-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

export function cleanupTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
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
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, AGENTGOV_HOME: join(home, '.agentgov'), AGENTX_HOME: join(home, '.agentx'), ...extra };
  if (!('AGENTGOV_CONFIG' in extra)) delete env['AGENTGOV_CONFIG'];
  return env;
}
export * from './memory-retrieval-index.js';
