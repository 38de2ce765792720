import { definePlugin } from '@agentgov/core';
import { codexAdapter } from './adapter.js';

export const NAME = 'framework-codex';

/** Registers the Codex CLI framework adapter (detection, rollout parser). */
export default definePlugin({
  name: NAME,
  apply(hooks) {
    hooks.frameworks.tap(NAME, (registry) => registry.add(codexAdapter));
  },
});

export { codexAdapter } from './adapter.js';
export { codexHome } from './home.js';
export { shellCommandOf } from './argv.js';
export { codexCanonicalTool, eventId, parseRollout, sessionIdOfFile, FRAMEWORK } from './rollout.js';
export * from './mcp-config.js';
export { gateFormat } from './gate-format.js';
export { codexHookInstaller } from './hook-installer.js';
