import { sep } from 'node:path';
import { captureAdapter } from '@agentgov/core';
import { gateFormat } from './gate-format.js';
import { cursorDir } from './home.js';
import { cursorHookInstaller } from './hook-installer.js';
import { cursorMcpRegistrar } from './mcp-config.js';
import { FRAMEWORK, parseTranscript } from './transcript.js';

/**
 * Cursor: installed when `~/.cursor` exists; agent transcripts are appended under
 * `projects/<project>/agent-transcripts/`.
 */
export const cursorAdapter = captureAdapter({
  framework: FRAMEWORK,
  home: cursorDir,
  roots: ['projects'],
  isCapture: (name, file) => name.endsWith('.jsonl') && file.split(sep).includes('agent-transcripts'),
  parse: parseTranscript,
  hookInstaller: cursorHookInstaller,
  mcpRegistrar: cursorMcpRegistrar,
  gateFormat,
});
