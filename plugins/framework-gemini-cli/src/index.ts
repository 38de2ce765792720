import { definePlugin } from '@agentgov/core';
import { geminiCliAdapter } from './adapter.js';

export const NAME = 'framework-gemini-cli';

/** Registers the Gemini CLI framework adapter (detection, chat-recording parser). */
export default definePlugin({
  name: NAME,
  apply(hooks) {
    hooks.frameworks.tap(NAME, (registry) => registry.add(geminiCliAdapter));
  },
});

export { geminiCliAdapter } from './adapter.js';
export { geminiDir } from './home.js';
export { eventId, geminiCanonicalTool, parseRecording, projectRootOf, FRAMEWORK } from './recording.js';
export * from './mcp-config.js';
export { gateFormat } from './gate-format.js';
export { geminiHookInstaller } from './hook-installer.js';
