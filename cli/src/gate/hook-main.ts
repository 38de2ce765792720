/**
 * The hook path of `agentgov gate --stdin [--format F]`: what runs before every tool call of an
 * agent. main.ts calls it, and bin/agentgov.js calls it from the one-file bundle of this module
 * (scripts/bundle-gate.mjs) when that bundle is as new as the build. A well-formed gate line skips
 * the CLI framework: clipanion and the command registry together cost more than the gate's whole
 * start-up budget (see bench/gate). Anything else on a `gate` line (`--help`, an unknown option, an
 * unknown format) goes through the full CLI and its usage errors.
 *
 * It fails closed: anything unexpected exits 2, which blocks the call and shows the message to the
 * agent (any other exit code would let the call run ungoverned).
 */
import { parseArgs } from 'node:util';

/** The format of a well-formed `gate --stdin [--format F]` argument list (after `gate`), else undefined. */
export function gateFormatOf(args: string[]): string | undefined {
  try {
    const { values } = parseArgs({
      args,
      options: { stdin: { type: 'boolean' }, format: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    });
    return values.stdin ? (values.format ?? 'agentx-code') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The hook's working directory: the process's, or the filesystem root when it was deleted (the hook input carries the
 * project's own cwd).
 */
function currentDirectory(): string {
  try {
    return process.cwd();
  } catch {
    return '/';
  }
}

/** Runs the gate for `argv` (the CLI's arguments, `gate` first) and sets the process's exit code. */
export async function runGateHook(argv: string[], formatName: string): Promise<void> {
  try {
    const cwd = currentDirectory();
    const { loadGateFormat } = await import('./formats.js');
    let format;
    try {
      format = await loadGateFormat(formatName, { cwd, env: process.env });
    } catch (error) {
      process.stderr.write(
        `agentgov gate: gate format '${formatName}': ${(error as Error).message}; the call is blocked\n`,
      );
      process.exit(2);
    }
    if (format) {
      const { runGate } = await import('./run-gate.js');
      const result = await runGate(format, {
        stdin: undefined,
        stdout: undefined,
        stderr: undefined,
        env: process.env,
        cwd,
      });
      // A read of an open, silent stdin is still pending: it would keep the process alive.
      if (result.stdinPending) process.exit(result.exitCode);
      process.exitCode = result.exitCode;
    } else {
      const { run } = await import('../cli.js');
      process.exitCode = await run(argv);
    }
  } catch (error) {
    process.stderr.write(
      `agentgov gate: internal error, the call is blocked: ${(error as Error).stack ?? String(error)}\n`,
    );
    process.exit(2);
  }
}
