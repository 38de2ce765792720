import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { agentxHome, type DetectedFramework, type FrameworkAdapter } from '@agentgov/core';
import { agentxHookInstaller } from './hook-installer.js';
import { FRAMEWORK, parseTranscript } from './transcript.js';

const isDir = (path: string): boolean => existsSync(path) && statSync(path).isDirectory();

/** Every `.jsonl` file under `dir`, recursively (sessions, and subagent transcripts beside them). */
function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...jsonlFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.jsonl')) out.push(path);
  }
  return out;
}

/**
 * agentx-code: a Claude-Code-compatible agent. Installed when `$AGENTX_HOME` (default `~/.agentx`)
 * has a `projects/` directory; transcripts are `projects/<project>/<session>.jsonl`.
 */
export const agentxAdapter: FrameworkAdapter = {
  name: FRAMEWORK,
  adapter: FRAMEWORK,
  ingestionMode: 'jsonl-tail',
  async detect(env): Promise<DetectedFramework | null> {
    const home = agentxHome(env);
    if (!isDir(join(home, 'projects'))) return null;
    return { name: FRAMEWORK, path: home, adapter: FRAMEWORK, ingestion_mode: 'jsonl-tail' };
  },
  captureRoots(env) {
    return [join(agentxHome(env), 'projects')];
  },
  async listCaptures(env) {
    const root = join(agentxHome(env), 'projects');
    return isDir(root) ? jsonlFiles(root).sort() : [];
  },
  parse: parseTranscript,
  hookInstaller: agentxHookInstaller,
};
