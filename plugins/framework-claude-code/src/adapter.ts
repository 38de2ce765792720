import { captureAdapter } from '@agentgov/core';
import { gateFormat } from './gate-format.js';
import { claudeConfigDir } from './home.js';
import { claudeHookInstaller } from './hook-installer.js';
import { claudeMcpRegistrar } from './mcp-config.js';
import { FRAMEWORK, parseTranscript } from './transcript.js';

/**
 * Claude Code: installed when its configuration directory has `projects/`, where every session
 * is an append-only transcript `projects/<project>/<session>.jsonl` (subagent transcripts beside them).
 */
export const claudeCodeAdapter = captureAdapter({
  framework: FRAMEWORK,
  home: claudeConfigDir,
  roots: ['projects'],
  installedWhen: 'projects',
  isCapture: (name) => name.endsWith('.jsonl'),
  parse: parseTranscript,
  hookInstaller: claudeHookInstaller,
  mcpRegistrar: claudeMcpRegistrar,
  gateFormat,
});
