/**
 * Copilot CLI's preToolUse hook protocol (`gate --format copilot-cli`). A hook configured under
 * the camelCase event name receives `{timestamp, cwd, toolName, toolArgs}` (`toolArgs` a JSON
 * string; `sessionId` when present); under `PreToolUse` the VS Code–compatible
 * `{session_id, cwd, hook_event_name, tool_name, tool_input}`. The answer is
 * `{"permissionDecision": "deny"|"ask", "permissionDecisionReason"}`; an allowed call or a
 * warning prints nothing (Copilot CLI ignores other output), so nothing is ever granted.
 */
import {
  checkToolCallPayload,
  hookAnswer,
  readHookAnswer,
  type GateHookFormat,
  type GateInput,
  type GateInputProblem,
} from '@agentgov/core/gate-hook';

const FRAMEWORK = 'copilot-cli';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function camelCaseInput(value: Record<string, unknown>): GateInput | GateInputProblem {
  const invalid = (message: string): GateInputProblem => ({ code: 'input_invalid', message });
  if (typeof value['toolName'] !== 'string' || value['toolName'] === '')
    return invalid("field 'toolName' must be a non-empty string");
  let args: unknown = value['toolArgs'] ?? {};
  if (typeof args === 'string') {
    try {
      args = args.trim() === '' ? {} : JSON.parse(args);
    } catch {
      return invalid("field 'toolArgs' is a string that is not JSON");
    }
  }
  if (!isObject(args)) return invalid("field 'toolArgs' must be an object (or a JSON string of one)");
  if (value['cwd'] !== undefined && typeof value['cwd'] !== 'string')
    return invalid("field 'cwd' must be a string when present");
  const session = typeof value['sessionId'] === 'string' && value['sessionId'] ? value['sessionId'] : 'copilot-cli';
  return {
    framework: FRAMEWORK,
    session_id: session,
    tool_name: value['toolName'],
    arguments: args,
    ...(typeof value['cwd'] === 'string' ? { cwd: value['cwd'] } : {}),
  };
}

export const gateFormat: GateHookFormat = {
  name: FRAMEWORK,
  module: import.meta.url,
  parseInput(value) {
    if (isObject(value) && 'toolName' in value) return camelCaseInput(value);
    return checkToolCallPayload(value, { framework: FRAMEWORK, argsField: 'tool_input', hookEvent: 'PreToolUse' });
  },
  render(outcome) {
    // No warning channel: a warning prints what an allowed call does (nothing).
    return hookAnswer(outcome, {
      stop: (decision, message) => ({ permissionDecision: decision, permissionDecisionReason: message }),
    });
  },
  probePayload(cwd) {
    return {
      timestamp: Date.now(),
      cwd,
      toolName: 'bash',
      toolArgs: JSON.stringify({ command: 'rm -rf /', description: 'agentgov probe' }),
    };
  },
  readDecision(stdout, exitCode) {
    return readHookAnswer(stdout, exitCode, ({ permissionDecision: decision }) =>
      decision === 'deny' || decision === 'ask' || decision === 'allow' ? decision : undefined,
    );
  },
};
