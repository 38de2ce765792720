/**
 * The agentx-code PreToolUse hook protocol (`gate --format agentx-code`), Claude Code's own shape:
 * see `preToolUseGateFormat`. The adapter's `gateFormat`; compiled into the gate bundle (its
 * `module`), so it imports nothing at run time but core's gate-hook helpers, which import nothing.
 */
import { preToolUseGateFormat, type GateHookFormat } from '@agentgov/core/gate-hook';

export const gateFormat: GateHookFormat = { ...preToolUseGateFormat('agentx-code'), module: import.meta.url };
