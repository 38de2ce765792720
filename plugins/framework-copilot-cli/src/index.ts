import { definePlugin } from '@agentgov/core';
import { copilotCliAdapter } from './adapter.js';

export const NAME = 'framework-copilot-cli';

/** Registers the GitHub Copilot CLI framework adapter (detection, session-event parser). */
export default definePlugin({
  name: NAME,
  apply(hooks) {
    hooks.frameworks.tap(NAME, (registry) => registry.add(copilotCliAdapter));
  },
});

export { copilotCliAdapter } from './adapter.js';
export { copilotHome } from './home.js';
export { copilotCanonicalTool, eventId, parseSessionEvents, FRAMEWORK } from './events.js';
export { gateFormat } from './gate-format.js';
export { copilotHookInstaller, copilotHooksFile } from './hook-installer.js';
export { copilotMcpRegistrar, copilotMcpConfigFile } from './mcp-config.js';
