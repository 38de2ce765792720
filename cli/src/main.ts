#!/usr/bin/env node
// Entry of `node cli <command>` (package.json "main") and of the `agentgov` bin. `gate` runs in an
// agent's hook before every tool call, so it skips the CLI framework (see gate/fast-path.ts).
const argv = process.argv.slice(2);
const fast = argv[0] === 'gate' ? await (await import('./gate/fast-path.js')).gateFastPath(argv.slice(1)) : undefined;
if (fast !== undefined) {
  process.exitCode = fast;
} else {
  const { run } = await import('./cli.js');
  process.exitCode = await run(argv);
}
