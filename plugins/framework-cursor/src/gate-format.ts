/**
 * Cursor's hook protocol for `beforeShellExecution`, `beforeMCPExecution` and `beforeReadFile`
 * (`gate --format cursor`). Each event has its own payload (`command`+`cwd`; `tool_name`+
 * `tool_input`; `file_path`), all with `conversation_id`, `generation_id` and `workspace_roots`;
 * they become a `Shell`, an MCP (`mcp__<tool>`) or a `Read` call. The answer is JSON on stdout:
 * `{"permission": "deny"|"ask", "user_message", "agent_message"}`. Cursor wants JSON on every
 * path, so an allowed call prints `{}` — no permission field, nothing granted.
 */
import {
  hookAnswer,
  type GateHookFormat,
  type GateInput,
  type GateInputProblem,
  type HookDecision,
} from '@agentgov/core/gate-hook';

const FRAMEWORK = 'cursor';
const EVENTS = ['beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v !== '';

function toolCallOf(
  value: Record<string, unknown>,
  event: string,
): { tool_name: string; arguments: Record<string, unknown> } | string {
  if (event === 'beforeShellExecution')
    return nonEmpty(value['command'])
      ? { tool_name: 'Shell', arguments: { command: value['command'] } }
      : "field 'command' must be a non-empty string";
  if (event === 'beforeReadFile')
    return nonEmpty(value['file_path'])
      ? { tool_name: 'Read', arguments: { file_path: value['file_path'] } }
      : "field 'file_path' must be a non-empty string";
  if (!nonEmpty(value['tool_name'])) return "field 'tool_name' must be a non-empty string";
  let args: unknown = value['tool_input'] ?? {};
  if (typeof args === 'string') {
    try {
      args = args.trim() === '' ? {} : JSON.parse(args);
    } catch {
      return "field 'tool_input' is a string that is not JSON";
    }
  }
  if (!isObject(args)) return "field 'tool_input' must be an object (or a JSON string of one)";
  return { tool_name: `mcp__${value['tool_name']}`, arguments: args };
}

export const gateFormat: GateHookFormat = {
  name: FRAMEWORK,
  module: import.meta.url,
  parseInput(value): GateInput | GateInputProblem {
    const invalid = (message: string): GateInputProblem => ({ code: 'input_invalid', message });
    if (!isObject(value)) return invalid('the event must be a JSON object');
    const event = value['hook_event_name'];
    if (typeof event !== 'string' || !EVENTS.includes(event))
      return invalid(`hook_event_name is ${JSON.stringify(event)}; the gate answers ${EVENTS.join(', ')}`);
    if (!nonEmpty(value['conversation_id'])) return invalid("field 'conversation_id' must be a non-empty string");
    const call = toolCallOf(value, event);
    if (typeof call === 'string') return invalid(call);
    const roots = Array.isArray(value['workspace_roots']) ? value['workspace_roots'].filter(nonEmpty) : [];
    const cwd = nonEmpty(value['cwd']) ? value['cwd'] : roots[0];
    return { framework: FRAMEWORK, session_id: value['conversation_id'], ...call, ...(cwd ? { cwd } : {}) };
  },
  render(outcome) {
    return hookAnswer(outcome, {
      stop: (decision, message) => ({ permission: decision, user_message: message, agent_message: message }),
      warn: (message) => ({ user_message: message }),
      allow: {},
    });
  },
  probePayload(cwd) {
    return {
      conversation_id: 'agentgov-probe',
      generation_id: 'agentgov-probe',
      hook_event_name: 'beforeShellExecution',
      workspace_roots: [cwd],
      command: 'rm -rf /',
      cwd,
    };
  },
  readDecision(stdout, exitCode): HookDecision | undefined {
    if (exitCode === 2) return 'deny';
    if (exitCode !== 0) return undefined;
    try {
      const value = JSON.parse(stdout) as { permission?: unknown; user_message?: unknown };
      if (value.permission === 'deny' || value.permission === 'ask' || value.permission === 'allow')
        return value.permission;
      if (value.permission !== undefined) return undefined;
      return typeof value.user_message === 'string' ? 'warn' : 'allow';
    } catch {
      return undefined;
    }
  },
};
