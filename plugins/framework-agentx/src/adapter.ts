import { join } from 'node:path';
import {
  agentxHome,
  findCaptureFiles,
  isDirectory,
  type DetectedFramework,
  type FrameworkAdapter,
} from '@agentgov/core';
import { agentxHookInstaller } from './hook-installer.js';
import { agentxMcpRegistrar } from './mcp-config.js';
import { FRAMEWORK, parseTranscript } from './transcript.js';

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
    if (!isDirectory(join(home, 'projects'))) return null;
    return { name: FRAMEWORK, path: home, adapter: FRAMEWORK, ingestion_mode: 'jsonl-tail' };
  },
  captureRoots(env) {
    return [join(agentxHome(env), 'projects')];
  },
  // Sessions and the subagent transcripts beside them; a directory removed mid-scan is passed over.
  listCaptures: async (env) => findCaptureFiles(join(agentxHome(env), 'projects'), (name) => name.endsWith('.jsonl')),
  parse: parseTranscript,
  hookInstaller: agentxHookInstaller,
  mcpRegistrar: agentxMcpRegistrar,
};
