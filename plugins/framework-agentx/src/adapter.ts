import { agentxHome, captureAdapter } from '@agentgov/core';
import { gateFormat } from './gate-format.js';
import { agentxHookInstaller } from './hook-installer.js';
import { agentxMcpRegistrar } from './mcp-config.js';
import { FRAMEWORK, parseTranscript } from './transcript.js';

/**
 * agentx-code: a Claude-Code-compatible agent. Installed when `$AGENTX_HOME` (default `~/.agentx`)
 * has a `projects/` directory; transcripts are `projects/<project>/<session>.jsonl` (subagent
 * transcripts beside them are listed too).
 */
export const agentxAdapter = captureAdapter({
  framework: FRAMEWORK,
  ingestionMode: 'jsonl-tail',
  home: agentxHome,
  roots: ['projects'],
  installedWhen: 'projects',
  isCapture: (name) => name.endsWith('.jsonl'),
  parse: parseTranscript,
  hookInstaller: agentxHookInstaller,
  mcpRegistrar: agentxMcpRegistrar,
  gateFormat,
});
