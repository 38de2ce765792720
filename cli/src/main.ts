#!/usr/bin/env node
// Entry of `node cli <command>` (package.json "main") and of the `agentgov` bin (bin/agentgov.js).
//
// `gate` runs in an agent's hook before every tool call, so a well-formed `gate --stdin
// [--format F]` line skips the CLI framework: clipanion and the command registry together cost
// more than the gate's whole start-up budget (see bench/gate). Anything else on a `gate` line
// (`--help`, an unknown option, an unknown format) goes through the full CLI and its usage errors.
import { parseArgs } from 'node:util';

function gateFormatOf(args: string[]): string | undefined {
  try {
    const { values } = parseArgs({ args, options: { stdin: { type: 'boolean' }, format: { type: 'string' } }, strict: true, allowPositionals: false });
    return values.stdin ? (values.format ?? 'agentx-code') : undefined;
  } catch {
    return undefined;
  }
}

const argv = process.argv.slice(2);
const gateFormatName = argv[0] === 'gate' ? gateFormatOf(argv.slice(1)) : undefined;
if (gateFormatName) {
  // The hook path fails closed: anything unexpected exits 2, which blocks the call and shows the
  // message to the agent (any other exit code would let the call run ungoverned).
  try {
    const { loadGateFormat } = await import('./gate/formats.js');
    const format = await loadGateFormat(gateFormatName);
    if (format) {
      const { runGate } = await import('./gate/run-gate.js');
      const result = await runGate(format, { stdin: undefined, stdout: undefined, stderr: undefined, env: process.env, cwd: process.cwd() });
      // A read of an open, silent stdin is still pending: it would keep the process alive.
      if (result.stdinPending) process.exit(result.exitCode);
      process.exitCode = result.exitCode;
    } else {
      const { run } = await import('./cli.js');
      process.exitCode = await run(argv);
    }
  } catch (error) {
    process.stderr.write(`agentgov gate: internal error, the call is blocked: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(2);
  }
} else {
  const { run } = await import('./cli.js');
  process.exitCode = await run(argv);
}
