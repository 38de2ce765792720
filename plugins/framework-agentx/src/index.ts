import { definePlugin } from '@agentgov/core';
import { agentxAdapter } from './adapter.js';

export const NAME = 'framework-agentx';

/** Registers the agentx-code framework adapter (detection, transcript parser, hook installer). */
export default definePlugin({
  name: NAME,
  apply(hooks) {
    hooks.frameworks.tap(NAME, (registry) => registry.add(agentxAdapter));
  },
});

export { agentxAdapter } from './adapter.js';
export { installPreToolUseHook, installedGateCommands, isGateCommand, settingsFileOf } from './hook-installer.js';
export { gateFormat } from './gate-format.js';
export { eventId, parseTranscript, FRAMEWORK, MAX_RESULT_CHARS } from './transcript.js';
