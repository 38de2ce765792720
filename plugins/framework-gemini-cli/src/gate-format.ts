/**
 * Gemini CLI's BeforeTool hook protocol (`gate --format gemini-cli`): the payload
 * `{session_id, transcript_path, cwd, hook_event_name: "BeforeTool", timestamp, tool_name,
 * tool_input}` and the answer on stdout, `{"decision": "deny", "reason"}`. An allowed call prints
 * nothing (Gemini CLI's own approval still applies), a warning only a `systemMessage`.
 *
 * An `ask` is answered as a deny whose reason says a person must approve the call: headless Gemini
 * CLI (`-p`, 0.61) treats a hook's `ask` as a silent stop — exit 0, no output, the rest of the task
 * skipped — and nothing in the hook's payload or environment says whether a person is there.
 */
import { checkToolCallPayload, hookAnswer, readHookAnswer, type GateHookFormat } from '@agentgov/core/gate-hook';

const FRAMEWORK = 'gemini-cli';
/** Opens the reason of an ask rendered as a deny. */
export const ASK_PREFIX =
  'agentgov wants a person to approve this call, and a Gemini CLI hook cannot ' +
  'ask in every mode: run it yourself after review, or allow it in the agentgov ' +
  'policy.';

export const gateFormat: GateHookFormat = {
  name: FRAMEWORK,
  module: import.meta.url,
  parseInput(value) {
    return checkToolCallPayload(value, { framework: FRAMEWORK, argsField: 'tool_input', hookEvent: 'BeforeTool' });
  },
  render(outcome) {
    return hookAnswer(outcome, {
      stop: (decision, message) => ({
        decision: 'deny',
        reason: decision === 'ask' ? `${ASK_PREFIX} ${message}` : message,
      }),
      warn: (message) => ({ systemMessage: message }),
    });
  },
  probePayload(cwd) {
    return {
      session_id: 'agentgov-probe',
      transcript_path: '',
      cwd,
      hook_event_name: 'BeforeTool',
      timestamp: new Date().toISOString(),
      tool_name: 'run_shell_command',
      tool_input: { command: 'rm -rf /' },
    };
  },
  readDecision(stdout, exitCode) {
    return readHookAnswer(stdout, exitCode, ({ decision, systemMessage }) => {
      if (decision === 'deny' || decision === 'block') return 'deny';
      if (decision === 'ask' || decision === 'allow') return decision;
      return decision === undefined && typeof systemMessage === 'string' ? 'warn' : undefined;
    });
  },
};
