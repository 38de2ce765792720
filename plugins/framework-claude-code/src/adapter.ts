import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { findCaptureFiles, isDirectory, type DetectedFramework, type FrameworkAdapter } from '@agentgov/core';
import { FRAMEWORK, parseTranscript } from './transcript.js';

const INGESTION_MODE = 'tail';

/** Claude Code's configuration directory: `$CLAUDE_CONFIG_DIR`, default `~/.claude`. */
export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
  const override = env['CLAUDE_CONFIG_DIR'];
  return override ? resolve(override) : join(env['HOME'] ?? homedir(), '.claude');
}

/**
 * Claude Code: installed when its configuration directory has `projects/`, where every session
 * is an append-only transcript `projects/<project>/<session>.jsonl` (subagent transcripts beside them).
 */
export const claudeCodeAdapter: FrameworkAdapter = {
  name: FRAMEWORK,
  adapter: FRAMEWORK,
  ingestionMode: INGESTION_MODE,
  async detect(env): Promise<DetectedFramework | null> {
    const dir = claudeConfigDir(env);
    return isDirectory(join(dir, 'projects')) ? { name: FRAMEWORK, path: dir, adapter: FRAMEWORK, ingestion_mode: INGESTION_MODE } : null;
  },
  captureRoots: (env) => [join(claudeConfigDir(env), 'projects')],
  listCaptures: async (env) => findCaptureFiles(join(claudeConfigDir(env), 'projects'), (name) => name.endsWith('.jsonl')),
  parse: parseTranscript,
};
