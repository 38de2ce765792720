import { join } from 'node:path';
import { findCaptureFiles, isDirectory, type DetectedFramework, type FrameworkAdapter } from '@agentgov/core';
import { codexMcpRegistrar } from './mcp-config.js';
import { codexHome } from './home.js';
import { codexHookInstaller } from './hook-installer.js';
import { FRAMEWORK, parseRollout } from './rollout.js';

const INGESTION_MODE = 'tail';

const isRollout = (name: string): boolean => name.startsWith('rollout-') && name.endsWith('.jsonl');

/**
 * OpenAI Codex CLI: installed when its home exists; every session is an append-only rollout under
 * `sessions/YYYY/MM/DD/` (and `archived_sessions/` once archived).
 */
export const codexAdapter: FrameworkAdapter = {
  name: FRAMEWORK,
  adapter: FRAMEWORK,
  ingestionMode: INGESTION_MODE,
  async detect(env): Promise<DetectedFramework | null> {
    const home = codexHome(env);
    return isDirectory(home)
      ? { name: FRAMEWORK, path: home, adapter: FRAMEWORK, ingestion_mode: INGESTION_MODE }
      : null;
  },
  captureRoots: (env) => [join(codexHome(env), 'sessions'), join(codexHome(env), 'archived_sessions')],
  async listCaptures(env) {
    const home = codexHome(env);
    return [
      ...findCaptureFiles(join(home, 'sessions'), isRollout),
      ...findCaptureFiles(join(home, 'archived_sessions'), isRollout),
    ].sort();
  },
  mcpRegistrar: codexMcpRegistrar,
  hookInstaller: codexHookInstaller,
  parse: parseRollout,
};
