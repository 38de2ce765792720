import { definePlugin } from '@agentgov/core';
import { cursorAdapter } from './adapter.js';

export const NAME = 'framework-cursor';

/** Registers the Cursor framework adapter (detection, agent-transcript parser). */
export default definePlugin({
  name: NAME,
  apply(hooks) {
    hooks.frameworks.tap(NAME, (registry) => registry.add(cursorAdapter));
  },
});

export { cursorAdapter } from './adapter.js';
export { cursorDir } from './home.js';
export { cursorCanonicalTool, eventId, parseTranscript, sessionOf, FRAMEWORK } from './transcript.js';
export * from './mcp-config.js';
export { gateFormat } from './gate-format.js';
export { cursorHookInstaller } from './hook-installer.js';
