#!/usr/bin/env node
// The `agentgov` bin. A committed file, so `npm ci` links node_modules/.bin/agentgov before the
// TypeScript build exists; it loads the build output (dist/src/main.js) and, when that is
// missing, says how to build it. Under an agent's hook (`gate`) a missing build exits 2, which
// blocks the call: the gate fails closed, never open.
//
// A `gate` line loads the gate's one-file bundle (dist/gate-bundle, scripts/bundle-gate.mjs) when
// every file it was made from is unchanged (its stamp lists them with size and time), and main.js
// otherwise: reading one file instead of ~40 is most of the hook's start-up with watch down.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/src/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  const checkout = fileURLToPath(new URL('../..', import.meta.url));
  process.stderr.write(
    `agentgov: the build output ${fileURLToPath(main)} is missing; build it with \`npm run build\` in ${checkout} (npm ci installs but does not build)\n`,
  );
  process.exit(process.argv[2] === 'gate' ? 2 : 70);
}

/** The gate bundle's URL when it is there and made from the current build, else undefined. */
function freshGateBundle() {
  try {
    const dir = new URL('../dist/gate-bundle/', import.meta.url);
    const { built_from: inputs } = JSON.parse(readFileSync(new URL('stamp.json', dir), 'utf8'));
    if (!Array.isArray(inputs) || inputs.length === 0) return undefined;
    for (const [file, mtimeMs, size] of inputs) {
      const stat = statSync(new URL(file, dir));
      if (stat.mtimeMs !== mtimeMs || stat.size !== size) return undefined;
    }
    return new URL('gate.mjs', dir);
  } catch {
    return undefined;
  }
}

const isGate = process.argv[2] === 'gate';
const trace = (message) => {
  if (isGate && process.env.AGENTGOV_GATE_TRACE === '1') process.stderr.write(`agentgov gate: ${message}\n`);
};
try {
  const bundleOff = process.env.AGENTGOV_GATE_BUNDLE === '0';
  const bundle = isGate && !bundleOff ? freshGateBundle() : undefined;
  let hook;
  if (bundle) {
    try {
      hook = await import(bundle.href);
    } catch (error) {
      trace(`the gate bundle cannot be loaded (${error?.message ?? error}); using ${fileURLToPath(main)}`);
      hook = undefined; // main.js decides, as it would without a bundle
    }
  } else if (isGate) trace(`${bundleOff ? 'gate bundle off (AGENTGOV_GATE_BUNDLE=0)' : 'no gate bundle made from this build'}; using ${fileURLToPath(main)}`);
  const format = typeof hook?.gateFormatOf === 'function' ? hook.gateFormatOf(process.argv.slice(3)) : undefined;
  if (format) {
    trace('running from the gate bundle');
    await hook.runGateHook(process.argv.slice(2), format);
  } else await import(main.href);
} catch (error) {
  // Under an agent's hook any exit but 0 or 2 lets the call run ungoverned: a broken build blocks it.
  process.stderr.write(`agentgov: ${isGate ? 'internal error, the call is blocked: ' : ''}${error?.stack ?? error}\n`);
  process.exit(isGate ? 2 : 70);
}
