#!/usr/bin/env node
// Entry of `node cli <command>` (package.json "main") and of the `agentgov` bin (bin/agentgov.js).
// A well-formed `gate --stdin [--format F]` line takes the hook path (gate/hook-main.ts), which
// skips the CLI framework; everything else goes through the full CLI.
import { gateFormatOf, runGateHook } from './gate/hook-main.js';

const argv = process.argv.slice(2);
const gateFormatName = argv[0] === 'gate' ? gateFormatOf(argv.slice(1)) : undefined;
if (gateFormatName) {
  await runGateHook(argv, gateFormatName);
} else {
  const { run } = await import('./cli.js');
  process.exitCode = await run(argv);
}
