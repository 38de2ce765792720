import { join } from 'node:path';
import { findCaptureFiles, isDirectory, type DetectedFramework, type FrameworkAdapter } from '@agentgov/core';
import { claudeMcpRegistrar } from './mcp-config.js';
import { claudeConfigDir } from './home.js';
import { claudeHookInstaller } from './hook-installer.js';
import { FRAMEWORK, parseTranscript } from './transcript.js';

const INGESTION_MODE = 'tail';

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
    return isDirectory(join(dir, 'projects'))
      ? { name: FRAMEWORK, path: dir, adapter: FRAMEWORK, ingestion_mode: INGESTION_MODE }
      : null;
  },
  captureRoots: (env) => [join(claudeConfigDir(env), 'projects')],
  listCaptures: async (env) =>
    findCaptureFiles(join(claudeConfigDir(env), 'projects'), (name) => name.endsWith('.jsonl')),
  mcpRegistrar: claudeMcpRegistrar,
  hookInstaller: claudeHookInstaller,
  parse: parseTranscript,
};
