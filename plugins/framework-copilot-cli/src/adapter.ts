import { captureAdapter } from '@agentgov/core';
import { FRAMEWORK, parseSessionEvents } from './events.js';
import { gateFormat } from './gate-format.js';
import { copilotHome } from './home.js';
import { copilotHookInstaller } from './hook-installer.js';
import { copilotMcpRegistrar } from './mcp-config.js';

/** GitHub Copilot CLI: installed when its home exists; each session appends to `session-state/<id>/events.jsonl`. */
export const copilotCliAdapter = captureAdapter({
  framework: FRAMEWORK,
  home: copilotHome,
  roots: ['session-state'],
  isCapture: (name) => name === 'events.jsonl',
  parse: parseSessionEvents,
  hookInstaller: copilotHookInstaller,
  mcpRegistrar: copilotMcpRegistrar,
  gateFormat,
});
