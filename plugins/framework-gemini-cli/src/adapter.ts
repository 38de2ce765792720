import { join, sep } from 'node:path';
import { findCaptureFiles, isDirectory, type DetectedFramework, type FrameworkAdapter } from '@agentgov/core';
import { geminiMcpRegistrar } from './mcp-config.js';
import { geminiDir } from './home.js';
import { geminiHookInstaller } from './hook-installer.js';
import { FRAMEWORK, parseRecording } from './recording.js';

const INGESTION_MODE = 'tail';

/** Session recordings: `session-*.jsonl` (and the legacy whole-file `session-*.json`), subagents' `<id>.jsonl` beside them. */
const isRecording = (name: string): boolean =>
  name.endsWith('.jsonl') || (name.startsWith('session-') && name.endsWith('.json'));

/**
 * Gemini CLI: installed when its user directory exists; chat recordings live per project under
 * `tmp/<project>/chats/`, appended a record at a time.
 */
export const geminiCliAdapter: FrameworkAdapter = {
  name: FRAMEWORK,
  adapter: FRAMEWORK,
  ingestionMode: INGESTION_MODE,
  async detect(env): Promise<DetectedFramework | null> {
    const dir = geminiDir(env);
    return isDirectory(dir) ? { name: FRAMEWORK, path: dir, adapter: FRAMEWORK, ingestion_mode: INGESTION_MODE } : null;
  },
  captureRoots: (env) => [join(geminiDir(env), 'tmp')],
  async listCaptures(env) {
    return findCaptureFiles(join(geminiDir(env), 'tmp'), isRecording).filter((file) =>
      file.split(sep).includes('chats'),
    );
  },
  mcpRegistrar: geminiMcpRegistrar,
  hookInstaller: geminiHookInstaller,
  parse: parseRecording,
};
