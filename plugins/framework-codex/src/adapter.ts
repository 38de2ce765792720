import { captureAdapter } from '@agentgov/core';
import { gateFormat } from './gate-format.js';
import { codexHome } from './home.js';
import { codexHookInstaller } from './hook-installer.js';
import { codexMcpRegistrar } from './mcp-config.js';
import { FRAMEWORK, parseRollout } from './rollout.js';

/**
 * OpenAI Codex CLI: installed when its home exists; every session is an append-only rollout under
 * `sessions/YYYY/MM/DD/` (and `archived_sessions/` once archived).
 */
export const codexAdapter = captureAdapter({
  framework: FRAMEWORK,
  home: codexHome,
  roots: ['sessions', 'archived_sessions'],
  isCapture: (name) => name.startsWith('rollout-') && name.endsWith('.jsonl'),
  parse: parseRollout,
  hookInstaller: codexHookInstaller,
  mcpRegistrar: codexMcpRegistrar,
  gateFormat,
});
