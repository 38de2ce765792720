import { join } from 'node:path';
import { findCaptureFiles, isDirectory, type DetectedFramework, type FrameworkAdapter } from '@agentgov/core';
import { copilotHome } from './home.js';
import { copilotHookInstaller } from './hook-installer.js';
import { FRAMEWORK, parseSessionEvents } from './events.js';
import { copilotMcpRegistrar } from './mcp-config.js';

const INGESTION_MODE = 'tail';

/** GitHub Copilot CLI: installed when its home exists; each session appends to `session-state/<id>/events.jsonl`. */
export const copilotCliAdapter: FrameworkAdapter = {
  name: FRAMEWORK,
  adapter: FRAMEWORK,
  ingestionMode: INGESTION_MODE,
  async detect(env): Promise<DetectedFramework | null> {
    const home = copilotHome(env);
    return isDirectory(home)
      ? { name: FRAMEWORK, path: home, adapter: FRAMEWORK, ingestion_mode: INGESTION_MODE }
      : null;
  },
  captureRoots: (env) => [join(copilotHome(env), 'session-state')],
  listCaptures: async (env) =>
    findCaptureFiles(join(copilotHome(env), 'session-state'), (name) => name === 'events.jsonl'),
  hookInstaller: copilotHookInstaller,
  mcpRegistrar: copilotMcpRegistrar,
  parse: parseSessionEvents,
};
