/**
 * Claude Code's PreToolUse hook protocol (`gate --format claude-code`): see `preToolUseGateFormat`
 * (its payload also carries `transcript_path`). Loaded by the gate client without the plugin host
 * (its `module`, compiled into the gate bundle): it imports nothing at run time but core's
 * gate-hook helpers.
 */
import { preToolUseGateFormat, type GateHookFormat } from '@agentgov/core/gate-hook';

export const gateFormat: GateHookFormat = {
  ...preToolUseGateFormat('claude-code', { transcript_path: '' }),
  module: import.meta.url,
};
