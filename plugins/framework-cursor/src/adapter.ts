import { join, sep } from 'node:path';
import { findCaptureFiles, isDirectory, type DetectedFramework, type FrameworkAdapter } from '@agentgov/core';
import { cursorMcpRegistrar } from './mcp-config.js';
import { cursorDir } from './home.js';
import { cursorHookInstaller } from './hook-installer.js';
import { FRAMEWORK, parseTranscript } from './transcript.js';

const INGESTION_MODE = 'tail';

/** Cursor: installed when `~/.cursor` exists; agent transcripts are appended under `projects/<project>/agent-transcripts/`. */
export const cursorAdapter: FrameworkAdapter = {
  name: FRAMEWORK,
  adapter: FRAMEWORK,
  ingestionMode: INGESTION_MODE,
  async detect(env): Promise<DetectedFramework | null> {
    const dir = cursorDir(env);
    return isDirectory(dir) ? { name: FRAMEWORK, path: dir, adapter: FRAMEWORK, ingestion_mode: INGESTION_MODE } : null;
  },
  captureRoots: (env) => [join(cursorDir(env), 'projects')],
  async listCaptures(env) {
    return findCaptureFiles(join(cursorDir(env), 'projects'), (name) => name.endsWith('.jsonl')).filter((file) =>
      file.split(sep).includes('agent-transcripts'),
    );
  },
  mcpRegistrar: cursorMcpRegistrar,
  hookInstaller: cursorHookInstaller,
  parse: parseTranscript,
};
