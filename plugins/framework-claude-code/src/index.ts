import { definePlugin } from '@agentgov/core';
import { claudeCodeAdapter } from './adapter.js';

export const NAME = 'framework-claude-code';

/** Registers the Claude Code framework adapter (detection, transcript parser). */
export default definePlugin({
  name: NAME,
  apply(hooks) {
    hooks.frameworks.tap(NAME, (registry) => registry.add(claudeCodeAdapter));
  },
});

export { claudeCodeAdapter } from './adapter.js';
export { claudeConfigDir } from './home.js';
export { eventId, parseTranscript, FRAMEWORK } from './transcript.js';
export * from './mcp-config.js';
export { gateFormat } from './gate-format.js';
export { claudeHookInstaller } from './hook-installer.js';
