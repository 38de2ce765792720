#!/usr/bin/env node
// Entry of `node cli <command>` (package.json "main") and of the `agentgov` bin.
//
// `gate` runs in an agent's hook before every tool call, so a well-formed `gate --stdin
// [--format F]` line skips the CLI framework: clipanion and the command registry together cost
// more than the gate's whole start-up budget (see bench/gate). Anything else on a `gate` line
// (`--help`, an unknown option, a bad format) goes through the full CLI and its usage errors.
import { parseArgs } from 'node:util';

function gateFormatOf(args: string[]): string | undefined {
  try {
    const { values } = parseArgs({ args, options: { stdin: { type: 'boolean' }, format: { type: 'string' } }, strict: true, allowPositionals: false });
    const format = values.format ?? 'agentx-code';
    return values.stdin && (format === 'agentx-code' || format === 'json') ? format : undefined;
  } catch {
    return undefined;
  }
}

const argv = process.argv.slice(2);
const gateFormat = argv[0] === 'gate' ? gateFormatOf(argv.slice(1)) : undefined;
if (gateFormat === 'agentx-code' || gateFormat === 'json') {
  const { runGate } = await import('./gate/run-gate.js');
  process.exitCode = await runGate(gateFormat, { stdin: undefined, stdout: undefined, stderr: undefined, env: process.env, cwd: process.cwd() });
} else {
  const { run } = await import('./cli.js');
  process.exitCode = await run(argv);
}
