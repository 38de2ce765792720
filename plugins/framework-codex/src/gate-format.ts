/**
 * Codex CLI's PreToolUse hook protocol (`gate --format codex`). Codex sends Claude Code's payload
 * shape plus `turn_id` and `model`; it acts on `permissionDecision: "deny"` (or exit 2) and
 * rejects the other decisions as unsupported, failing open. So an allowed call and a warning print
 * nothing, and an `ask` is rendered as a deny whose reason says agentgov wants a person to approve
 * it — an ask must never turn into an unreviewed run.
 */
import { checkToolCallPayload, hookAnswer, readHookAnswer, type GateHookFormat } from '@agentgov/core/gate-hook';
import { shellCommandOf } from './argv.js';
import { patchArguments } from './patch.js';

const FRAMEWORK = 'codex';
/** Opens the reason of an ask rendered as a deny. */
export const ASK_PREFIX =
  'agentgov wants a person to approve this call, and Codex hooks cannot ask: ' +
  'run it yourself after review, or allow it in the agentgov policy.';

export const gateFormat: GateHookFormat = {
  name: FRAMEWORK,
  module: import.meta.url,
  parseInput(value) {
    // Codex sends `transcript_path: null` when the session keeps no rollout.
    const payload =
      typeof value === 'object' && value !== null && (value as Record<string, unknown>)['transcript_path'] === null
        ? { ...value, transcript_path: undefined }
        : value;
    const input = checkToolCallPayload(payload, {
      framework: FRAMEWORK,
      argsField: 'tool_input',
      hookEvent: 'PreToolUse',
    });
    if ('tool_name' in input) {
      const command = input.arguments['command'];
      if (Array.isArray(command) && command.every((w) => typeof w === 'string'))
        input.arguments = { ...input.arguments, argv: command, command: shellCommandOf(command as string[]) };
      // apply_patch: the files the patch adds, updates, deletes or moves to are what the gate judges.
      const patch = input.arguments['input'] ?? input.arguments['patch'];
      if (input.tool_name === 'apply_patch' && typeof patch === 'string')
        input.arguments = { ...input.arguments, ...patchArguments(patch) };
    }
    return input;
  },
  render(outcome) {
    // Codex has no ask: an ask is a deny whose reason says a person must approve; a warning prints nothing.
    return hookAnswer(outcome, {
      stop: (decision, message) => ({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: decision === 'ask' ? `${ASK_PREFIX} ${message}` : message,
        },
      }),
    });
  },
  probePayload(cwd) {
    return {
      session_id: 'agentgov-probe',
      transcript_path: null,
      cwd,
      hook_event_name: 'PreToolUse',
      model: 'probe',
      turn_id: 'probe',
      tool_name: 'Bash',
      tool_use_id: 'agentgov-probe',
      tool_input: { command: 'rm -rf /' },
    };
  },
  readDecision(stdout, exitCode) {
    return readHookAnswer(stdout, exitCode, (answer) => {
      const output = answer['hookSpecificOutput'] as { permissionDecision?: unknown } | null | undefined;
      return output?.permissionDecision === 'deny' || answer['decision'] === 'block' ? 'deny' : undefined;
    });
  },
};
