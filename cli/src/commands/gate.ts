import { Command, Option } from 'clipanion';
import { AgentgovCommand, EXIT } from './base.js';

export class GateCommand extends AgentgovCommand {
  static override paths = [['gate']];
  static override usage = Command.Usage({
    category: 'Governance',
    description: 'Relay one tool-call event to the running pipeline and print its verdict',
    details:
      'Reads one event from stdin — the Score request shape `{tool_name, arguments, ' +
      'session_id}` or an agentx-code PreToolUse hook payload — sends it to the ' +
      'gate of the running `agentgov watch` over its Unix socket, and prints the ' +
      'verdict. The `agentx-code` format is the hook output the agent reads (`hookSpecificOutput.permissionDecision` ' +
      'allow/deny/ask); `json` prints the verdict, the assessment and the event ' +
      'id. The exit code is 0 whenever a verdict was printed. When no pipeline ' +
      'answers (watch not running, stale socket, bad token, broken reply, timeout) ' +
      'or the input is empty or malformed, `gate.on_unavailable` (ask, deny or ' +
      'allow; default ask) decides and the reason says exactly what failed.',
    examples: [
      ['As an agentx-code PreToolUse hook', '$0 gate --stdin'],
      [
        'Ask by hand, full verdict',
        `echo '{"tool_name":"Bash","arguments":{"command":"rm -rf /"},"session_id":"s1"}' ` +
          `| $0 gate --stdin --format json`,
      ],
    ],
  });

  stdin = Option.Boolean('--stdin', false, {
    description: 'Read the event JSON from stdin; required, the only mode (default: false)',
  });
  format = Option.String('--format', 'agentx-code', {
    description:
      "The hook protocol: json, or an agent's format from its framework plugin " +
      '(a bundled one or one the config loads), e.g. agentx-code (default: agentx-code)',
  });

  async run(): Promise<number> {
    if (!this.stdin) {
      this.context.stderr.write('error [E_INVALID_ARGUMENT]: gate reads the event from stdin: pass --stdin\n');
      return EXIT.USAGE;
    }
    const { loadGateFormat } = await import('../gate/formats.js');
    const scope = { cwd: process.cwd(), env: process.env };
    let format;
    try {
      format = await loadGateFormat(this.format, scope);
    } catch (error) {
      this.context.stderr.write(`error [E_PLUGIN_LOAD]: gate format '${this.format}': ${(error as Error).message}\n`);
      return EXIT.USAGE;
    }
    if (!format) {
      const { gateFormatNames } = await import('../gate/plugin-formats.js');
      const names = await gateFormatNames(scope);
      this.context.stderr.write(
        `error [E_INVALID_ARGUMENT]: --format must be one of ${names.join(', ')} (got ${this.format})\n`,
      );
      return EXIT.USAGE;
    }
    const { runGate } = await import('../gate/run-gate.js');
    const result = await runGate(format, {
      stdin: this.context.stdin,
      stdout: this.context.stdout,
      stderr: this.context.stderr,
      env: process.env,
      cwd: process.cwd(),
    });
    return result.exitCode;
  }
}
