import { sep } from 'node:path';
import { captureAdapter } from '@agentgov/core';
import { gateFormat } from './gate-format.js';
import { geminiDir } from './home.js';
import { geminiHookInstaller } from './hook-installer.js';
import { geminiMcpRegistrar } from './mcp-config.js';
import { FRAMEWORK, parseRecording } from './recording.js';

/**
 * Session recordings: `session-*.jsonl` (and the legacy whole-file `session-*.json`), subagents' `<id>.jsonl` beside
 * them.
 */
const isRecording = (name: string): boolean =>
  name.endsWith('.jsonl') || (name.startsWith('session-') && name.endsWith('.json'));

/**
 * Gemini CLI: installed when its user directory exists; chat recordings live per project under
 * `tmp/<project>/chats/`, appended a record at a time.
 */
export const geminiCliAdapter = captureAdapter({
  framework: FRAMEWORK,
  home: geminiDir,
  roots: ['tmp'],
  isCapture: (name, file) => isRecording(name) && file.split(sep).includes('chats'),
  parse: parseRecording,
  hookInstaller: geminiHookInstaller,
  mcpRegistrar: geminiMcpRegistrar,
  gateFormat,
});
