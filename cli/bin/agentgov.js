#!/usr/bin/env node
// The `agentgov` bin. A committed file, so `npm ci` links node_modules/.bin/agentgov before the
// TypeScript build exists; it loads the build output (dist/src/main.js) and, when that is
// missing, says how to build it. Under an agent's hook (`gate`) a missing build exits 2, which
// blocks the call: the gate fails closed, never open.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/src/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  const checkout = fileURLToPath(new URL('../..', import.meta.url));
  process.stderr.write(
    `agentgov: the build output ${fileURLToPath(main)} is missing; build it with \`npm run build\` in ${checkout} (npm ci installs but does not build)\n`,
  );
  process.exit(process.argv[2] === 'gate' ? 2 : 70);
}
await import(main.href);
