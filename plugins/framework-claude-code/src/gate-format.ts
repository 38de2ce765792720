/**
 * Claude Code's PreToolUse hook protocol (`gate --format claude-code`): the payload Claude Code
 * sends (`{session_id, transcript_path, cwd, hook_event_name, tool_name, tool_input, tool_use_id}`)
 * and the answer it reads. Loaded by the gate client without the plugin host (declared in
 * package.json `agentgov.gateFormats`): it imports nothing at run time but core's gate-hook helpers.
 *
 * The answer never grants what Claude Code's own permissions would not: an allowed call prints no
 * permission decision (Claude Code's rules and prompts still apply), a warning prints a message
 * without a decision, `ask` and `deny` are `hookSpecificOutput.permissionDecision`.
 */
import { checkToolCallPayload, type GateHookFormat, type HookDecision } from '@agentgov/core/gate-hook';

const FRAMEWORK = 'claude-code';

export const gateFormat: GateHookFormat = {
  name: FRAMEWORK,
  parseInput(value) {
    const hook = typeof value === 'object' && value !== null && 'tool_input' in value;
    return checkToolCallPayload(value, hook ? { framework: FRAMEWORK, argsField: 'tool_input', hookEvent: 'PreToolUse' } : { framework: 'gate', argsField: 'arguments' });
  },
  render(outcome) {
    const { verdict, assessment, notes = [] } = outcome;
    const message = [verdict.reason, ...notes].join(' ');
    if (verdict.decision === 'ask' || verdict.decision === 'deny') {
      return { stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: verdict.decision, permissionDecisionReason: message } })}\n`, exitCode: 0 };
    }
    if (assessment?.action === 'warn' || notes.length) return { stdout: `${JSON.stringify({ systemMessage: message })}\n`, exitCode: 0 };
    return { stdout: '', exitCode: 0 };
  },
  probePayload(cwd) {
    return { session_id: 'agentgov-probe', transcript_path: '', cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 'agentgov-probe' };
  },
  readDecision(stdout, exitCode): HookDecision | undefined {
    if (exitCode === 2) return 'deny';
    if (exitCode !== 0) return undefined;
    if (stdout.trim() === '') return 'allow';
    let value: { hookSpecificOutput?: { permissionDecision?: unknown }; systemMessage?: unknown };
    try {
      value = JSON.parse(stdout) as typeof value;
    } catch {
      return undefined;
    }
    const decision = value.hookSpecificOutput?.permissionDecision;
    if (decision === 'ask' || decision === 'deny' || decision === 'allow') return decision;
    return decision === undefined && typeof value.systemMessage === 'string' ? 'warn' : undefined;
  },
};
