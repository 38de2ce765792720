/**
 * What `gate --stdin` accepts: one JSON tool-call event, read by the `--format`'s parser (the
 * agent's hook payload, or the Score request shape `{tool_name, arguments, session_id}`). The
 * client checks it (to fail fast with a precise reason) and sends the normalised form; the server
 * checks that form again (it never trusts a peer). Node built-ins only: gate start-up path.
 */
import {
  checkToolCallPayload,
  isGateInputProblem,
  type GateHookFormat,
  type GateInput,
  type GateInputProblem,
} from '@agentgov/core/gate-hook';

export type { GateInput } from '@agentgov/core/gate-hook';
export type InputProblem = GateInputProblem;

/** Parses the text read from stdin with the format's payload reader. */
export function parseGateText(text: string, format: Pick<GateHookFormat, 'parseInput'>): GateInput | InputProblem {
  if (text.trim() === '') return { code: 'input_empty', message: 'stdin was empty; expected one JSON tool-call event' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { code: 'input_malformed', message: `stdin is not valid JSON (${(error as Error).message})` };
  }
  return format.parseInput(value);
}

/** Checks the normalised form on the wire; the problem names the offending field. */
export function toGateInput(value: unknown): GateInput | InputProblem {
  const framework =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['framework'] : undefined;
  if (typeof framework !== 'string' || framework === '')
    return { code: 'input_invalid', message: "field 'framework' must be a non-empty string" };
  return checkToolCallPayload(value, { framework, argsField: 'arguments' });
}

export function isInputProblem(value: GateInput | InputProblem): value is InputProblem {
  return isGateInputProblem(value);
}
