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

export { geminiCliAdapter, geminiDir } from './adapter.js';
export { eventId, geminiCanonicalTool, parseRecording, projectRootOf, FRAMEWORK } from './recording.js';
