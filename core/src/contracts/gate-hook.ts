/**
 * How an agent's hook talks to `agentgov gate`: the normalised tool call the gate decides on, the
 * outcome it prints, and the per-framework format (payload in, hook answer out) a framework plugin
 * provides. This module imports nothing: it is on the gate client's start-up path
 * (`@agentgov/core/gate-hook`).
 */
import type { Assessment, GateVerdict } from './events.js';

/** One tool call to gate, whatever framework's hook sent it. */
export interface GateInput {
  /** Framework whose hook sent the call (`gate` for the framework-neutral Score request shape). */
  framework: string;
  session_id: string;
  tool_name: string;
  arguments: Record<string, unknown>;
  cwd?: string;
  tool_use_id?: string;
  transcript_path?: string;
  hook_event_name?: string;
}

export interface GateInputProblem {
  code: 'input_empty' | 'input_malformed' | 'input_invalid';
  message: string;
}

/** What the gate decided for one call, or why it could not (then `gate.on_unavailable` decided). */
export interface GateOutcome {
  verdict: GateVerdict;
  event_id?: string;
  assessment?: Assessment;
  /** Present when no assessment decided: what failed. */
  unavailable?: { code: string; message: string };
  /** Settings that were ignored or problems worth telling the user (e.g. an untrusted project config). */
  notes?: string[];
}

/** The answer the hook prints, as the agent reads it. */
export type HookDecision = 'allow' | 'warn' | 'ask' | 'deny';

/**
 * A framework's hook protocol, named by `gate --format NAME`. A framework plugin contributes it as
 * its adapter's `gateFormat` (`FrameworkAdapter`, registered on the `frameworks` hook): the gate
 * finds a format among the frameworks the plugin host registers, as every other command finds a
 * provider (docs/plugins.md, "Gate formats").
 */
export interface GateHookFormat {
  name: string;
  /**
   * The URL of the module that defines this format and exports it as `gateFormat`
   * (`import.meta.url` where it is written), when that module imports nothing but Node built-ins,
   * `@agentgov/core/gate-hook` and modules of its own that import no more. The gate bundle
   * compiles such a module in (a hook call then loads no plugin host); without it the format
   * still works, found through the host.
   */
  module?: string;
  /** The hook payload (decoded JSON) as a gate input; a problem names the offending field. */
  parseInput(value: unknown): GateInput | GateInputProblem;
  /**
   * What the hook prints and exits with. It must never grant more than the agent's own
   * permissions would: no permission decision for an allowed call, a message without a decision
   * for a warning, ask and deny as decisions.
   */
  render(outcome: GateOutcome): { stdout: string; exitCode: number };
  /**
   * A payload for a call that must never be allowed (`rm -rf /`), sent by `init` and `doctor` to verify an installed
   * hook.
   */
  probePayload(cwd: string): unknown;
  /**
   * Reads back what `render` printed: the decision the agent will act on, or undefined when the output is not a hook
   * answer.
   */
  readDecision(stdout: string, exitCode: number): HookDecision | undefined;
}

export function isGateInputProblem(value: GateInput | GateInputProblem): value is GateInputProblem {
  return 'code' in value && !('tool_name' in value);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads back a hook's answer the way most agents take it: exit 2 is a deny (the agent blocks the
 * call), any other non-zero exit is no answer, an empty stdout an allow; otherwise `read` decides
 * on the JSON object printed (anything else is no answer).
 */
export function readHookAnswer(
  stdout: string,
  exitCode: number,
  read: (answer: Record<string, unknown>) => HookDecision | undefined,
): HookDecision | undefined {
  if (exitCode === 2) return 'deny';
  if (exitCode !== 0) return undefined;
  if (stdout.trim() === '') return 'allow';
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    return undefined;
  }
  return isObject(value) ? read(value) : undefined;
}

const OPTIONAL_STRINGS = ['cwd', 'tool_use_id', 'transcript_path', 'hook_event_name'] as const;

/**
 * Checks a decoded hook payload of the common `{session_id, tool_name, <argsField>, cwd?,
 * tool_use_id?, transcript_path?, hook_event_name?}` form; the problem names the offending field.
 * Formats whose payload differs map it to this form first.
 */
export function checkToolCallPayload(
  value: unknown,
  options: { framework: string; argsField: string; hookEvent?: string },
): GateInput | GateInputProblem {
  const invalid = (message: string): GateInputProblem => ({ code: 'input_invalid', message });
  if (!isObject(value))
    return invalid(
      `the event must be a JSON object, got ` +
        `${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
    );
  for (const field of ['tool_name', 'session_id']) {
    if (typeof value[field] !== 'string' || value[field] === '')
      return invalid(`field '${field}' must be a non-empty string`);
  }
  if (!isObject(value[options.argsField])) return invalid(`field '${options.argsField}' must be an object`);
  for (const field of OPTIONAL_STRINGS) {
    if (value[field] !== undefined && typeof value[field] !== 'string')
      return invalid(`field '${field}' must be a string when present`);
  }
  if (options.hookEvent && value['hook_event_name'] !== undefined && value['hook_event_name'] !== options.hookEvent) {
    return invalid(
      `hook_event_name is '${String(value['hook_event_name'])}'; the gate answers ${options.hookEvent} events only`,
    );
  }
  const input: GateInput = {
    framework: options.framework,
    session_id: value['session_id'] as string,
    tool_name: value['tool_name'] as string,
    arguments: value[options.argsField] as Record<string, unknown>,
  };
  for (const field of OPTIONAL_STRINGS) {
    if (typeof value[field] === 'string') input[field] = value[field];
  }
  return input;
}

/** How a format words its answers for `hookAnswer`. */
export interface HookAnswerWords {
  /** The answer for `ask` and `deny`: the format's decision object. */
  stop(decision: 'ask' | 'deny', message: string): object;
  /** The answer for a warning or a verdict with notes; without it such a call prints what an allowed one does. */
  warn?(message: string): object;
  /** The answer for an allowed call; without it nothing is printed. */
  allow?: object;
}

/**
 * A hook's answer for a verdict, in a format's own words: one JSON line on stdout and exit 0. The message is the
 * verdict's reason followed by its notes.
 */
export function hookAnswer(outcome: GateOutcome, words: HookAnswerWords): { stdout: string; exitCode: number } {
  const { verdict, assessment, notes = [] } = outcome;
  const message = [verdict.reason, ...notes].join(' ');
  const answer =
    verdict.decision === 'ask' || verdict.decision === 'deny'
      ? words.stop(verdict.decision, message)
      : words.warn && (assessment?.action === 'warn' || notes.length > 0)
        ? words.warn(message)
        : words.allow;
  return { stdout: answer === undefined ? '' : `${JSON.stringify(answer)}\n`, exitCode: 0 };
}

/**
 * The Claude-Code-style PreToolUse protocol (Claude Code, and agentx-code that copies it): the hook
 * payload `{session_id, cwd, hook_event_name, tool_name, tool_input, tool_use_id}`, or the neutral
 * Score request shape; the answer never grants what the agent's own permissions would not: an
 * allowed call prints nothing, a warning prints a `systemMessage` without a decision, `ask` and
 * `deny` are `hookSpecificOutput.permissionDecision`. `probeExtra` adds fields the framework's
 * payload carries beside those (Claude Code's `transcript_path`).
 */
export function preToolUseGateFormat(framework: string, probeExtra: Record<string, unknown> = {}): GateHookFormat {
  return {
    name: framework,
    parseInput(value) {
      const hook = typeof value === 'object' && value !== null && 'tool_input' in value;
      return checkToolCallPayload(
        value,
        hook
          ? { framework, argsField: 'tool_input', hookEvent: 'PreToolUse' }
          : { framework: 'gate', argsField: 'arguments' },
      );
    },
    render(outcome) {
      return hookAnswer(outcome, {
        stop: (decision, message) => ({
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: decision,
            permissionDecisionReason: message,
          },
        }),
        warn: (message) => ({ systemMessage: message }),
      });
    },
    probePayload(cwd) {
      return {
        session_id: 'agentgov-probe',
        ...probeExtra,
        cwd,
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf /' },
        tool_use_id: 'agentgov-probe',
      };
    },
    readDecision(stdout, exitCode) {
      return readHookAnswer(stdout, exitCode, (answer) => {
        const output = answer['hookSpecificOutput'];
        const decision = isObject(output) ? output['permissionDecision'] : undefined;
        if (decision === 'ask' || decision === 'deny' || decision === 'allow') return decision;
        return decision === undefined && typeof answer['systemMessage'] === 'string' ? 'warn' : undefined;
      });
    },
  };
}
