/**
 * What `gate --stdin` accepts: the Score request shape `{tool_name, arguments, session_id}` or an
 * agentx-code PreToolUse hook payload `{session_id, cwd, hook_event_name, tool_name, tool_input,
 * tool_use_id, ...}`. Both are checked here, on the client (to fail fast with a precise reason)
 * and again on the server (which never trusts a peer). Node built-ins only: gate start-up path.
 */

/** One tool call to gate, in the form both shapes share. */
export interface GateInput {
  shape: 'agentx-code' | 'score';
  session_id: string;
  tool_name: string;
  arguments: Record<string, unknown>;
  cwd?: string;
  tool_use_id?: string;
  transcript_path?: string;
  hook_event_name?: string;
}

export type InputProblem = { code: 'input_empty' | 'input_malformed' | 'input_invalid'; message: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses the text read from stdin. */
export function parseGateText(text: string): GateInput | InputProblem {
  if (text.trim() === '') return { code: 'input_empty', message: 'stdin was empty; expected one JSON tool-call event' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { code: 'input_malformed', message: `stdin is not valid JSON (${(error as Error).message})` };
  }
  return toGateInput(value);
}

/** Checks a decoded value against both accepted shapes; the problem names the offending field. */
export function toGateInput(value: unknown): GateInput | InputProblem {
  const invalid = (message: string): InputProblem => ({ code: 'input_invalid', message });
  if (!isObject(value)) return invalid(`the event must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`);
  // `shape` is set on the wire (the client sends the checked form back to the server).
  const hook = 'tool_input' in value || value['shape'] === 'agentx-code';
  const argsField = 'tool_input' in value ? 'tool_input' : 'arguments';
  for (const field of ['tool_name', 'session_id']) {
    if (typeof value[field] !== 'string' || value[field] === '') return invalid(`field '${field}' must be a non-empty string`);
  }
  if (!isObject(value[argsField])) return invalid(`field '${argsField}' must be an object`);
  for (const field of ['cwd', 'tool_use_id', 'transcript_path', 'hook_event_name']) {
    if (value[field] !== undefined && typeof value[field] !== 'string') return invalid(`field '${field}' must be a string when present`);
  }
  if (hook && value['hook_event_name'] !== undefined && value['hook_event_name'] !== 'PreToolUse') {
    return invalid(`hook_event_name is '${String(value['hook_event_name'])}'; the gate answers PreToolUse events only`);
  }
  const input: GateInput = {
    shape: hook ? 'agentx-code' : 'score',
    session_id: value['session_id'] as string,
    tool_name: value['tool_name'] as string,
    arguments: value[argsField] as Record<string, unknown>,
  };
  for (const field of ['cwd', 'tool_use_id', 'transcript_path', 'hook_event_name'] as const) {
    if (typeof value[field] === 'string') input[field] = value[field];
  }
  return input;
}

export function isInputProblem(value: GateInput | InputProblem): value is InputProblem {
  return 'code' in value;
}
