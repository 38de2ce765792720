#!/usr/bin/env node
// The `agentgov` bin. A committed file, so `npm ci` links node_modules/.bin/agentgov before the
// TypeScript build exists; it loads the build output (dist/src/main.js) and, when that is
// missing, says how to build it. Under an agent's hook (`gate`) a missing build exits 2, which
// blocks the call: the gate fails closed, never open.
//
// A `gate` line loads the gate's one-file bundle (dist/gate-bundle, scripts/bundle-gate.mjs) when
// every file it was made from is unchanged (its stamp lists them with size and time, and for an
// installed copy by package, version and size), and main.js otherwise. This file and the bundle run as CommonJS
// (bin/package.json): a hook call that starts
// Node's ES module loader pays for it on every tool call of the agent (bench/gate). The bundle is
// compiled with V8's code cache (named in the stamp after the bundle's content), which this file
// writes after a call when it is missing or V8 turned it down (another Node version), wherever
// the install is writable.
//
// Copied without bin/package.json, this file runs as an ES module, and must still work: so it
// uses no `require`, `__dirname` or `import.meta` of its own (built-ins come from
// process.getBuiltinModule, Node 20.16+), and where it cannot start it exits 2 under a hook.
'use strict';
const isGate = process.argv[2] === 'gate';
let builtin;
try {
  builtin = typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule : require;
} catch {
  process.stderr.write(
    `agentgov: this Node (${process.version}) cannot run bin/agentgov.js without ` +
      `bin/package.json; use Node 20.16 or later` +
      `${isGate ? ' — the call is blocked' : ''}\n`,
  );
  process.exit(isGate ? 2 : 70);
}
const { existsSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } = builtin('node:fs');
const Module = builtin('node:module');
const path = builtin('node:path');
const { pathToFileURL } = builtin('node:url');
const vm = builtin('node:vm');

/** This file's directory: __dirname as CommonJS; as an ES module, the real path of the script Node was asked to run. */
const binDir = typeof __dirname === 'string' ? __dirname : path.dirname(realpathSync(process.argv[1]));
const main = path.join(binDir, '..', 'dist', 'src', 'main.js');
if (!existsSync(main)) {
  const checkout = path.join(binDir, '..', '..');
  process.stderr.write(
    `agentgov: the build output ${main} is missing; build it with \`npm run build\` ` +
      `in ${checkout} (npm ci installs but does not build)\n`,
  );
  process.exit(isGate ? 2 : 70);
}

/** Whether every file the bundle was made from is unchanged in this checkout: same size and time. */
function unchangedInCheckout(dir, inputs) {
  if (!Array.isArray(inputs) || inputs.length === 0) return false;
  for (const [file, mtimeMs, size] of inputs) {
    const stat = statSync(path.resolve(dir, file));
    if (stat.mtimeMs !== mtimeMs || stat.size !== size) return false;
  }
  return true;
}

/**
 * Whether an installed copy (a package under node_modules, as npm installs the tarball) holds the
 * packages the bundle was made from: npm sets every file's time to one date, so the stamp's
 * `packages` name each input by package, version and size instead. Packages are found as Node
 * finds them, from this package's directory up.
 */
function unchangedInInstall(packages) {
  const own = path.join(binDir, '..');
  if (!Array.isArray(packages) || packages.length === 0 || !own.split(path.sep).includes('node_modules')) return false;
  // The node_modules directories Node would look in, nearest first; only those that exist are asked for each package.
  const lookIn = [];
  for (let up = own; ; up = path.dirname(up)) {
    const modules = path.join(up, 'node_modules');
    if (existsSync(modules)) lookIn.push(modules);
    if (up === path.dirname(up)) break;
  }
  for (const [name, version, files] of packages) {
    let dir = name === 'agentgov' ? own : undefined;
    let manifest;
    for (let i = 0; dir === undefined; i++) {
      if (i === lookIn.length) return false;
      try {
        manifest = readFileSync(`${lookIn[i]}/${name}/package.json`, 'utf8');
        dir = `${lookIn[i]}/${name}`;
      } catch {
        // not in this node_modules: the next one up
      }
    }
    if (JSON.parse(manifest ?? readFileSync(`${dir}/package.json`, 'utf8')).version !== version) return false;
    for (const [file, size] of files) if (statSync(`${dir}/${file}`).size !== size) return false;
  }
  return true;
}

/** The gate bundle (file and code cache file) when it is there and made from the current build, else undefined. */
function freshGateBundle() {
  try {
    const dir = path.join(binDir, '..', 'dist', 'gate-bundle');
    const stamp = JSON.parse(readFileSync(path.join(dir, 'stamp.json'), 'utf8'));
    const { built_from: inputs, code_cache: cache } = stamp;
    let fresh;
    try {
      fresh = unchangedInCheckout(dir, inputs);
    } catch {
      fresh = false; // an input is gone: not this checkout's build, perhaps an install
    }
    if (!fresh && !unchangedInInstall(stamp.packages)) return undefined;
    const cacheFile =
      typeof cache === 'string' && /^gate-[0-9a-f]{16}\.cache$/.test(cache) ? path.join(dir, cache) : undefined;
    return { file: path.join(dir, 'gate.cjs'), cacheFile };
  } catch {
    return undefined;
  }
}

/**
 * Loads the bundle as require() would, with its code cache when there is one, and with
 * `__gateImport` for the modules it reaches outside itself (an import() in a vm.Script has no
 * loader on Node 20 once the script comes from a code cache). Returns the module's exports and,
 * when the cache is missing or was turned down, a function that writes a fresh one (after the
 * call: the functions compiled by then are kept).
 */
function loadGateBundle({ file, cacheFile }) {
  let cachedData;
  try {
    cachedData = cacheFile ? readFileSync(cacheFile) : undefined;
  } catch {
    cachedData = undefined;
  }
  const source =
    `(function (exports, require, module, __filename, __dirname, __gateImport) ` + `{${readFileSync(file, 'utf8')}\n})`;
  const script = new vm.Script(source, { filename: file, cachedData });
  const module = { exports: {}, filename: file };
  const dir = path.dirname(file);
  const gateImport = (specifier) =>
    import(/^\.\.?\//.test(specifier) ? pathToFileURL(path.resolve(dir, specifier)).href : specifier);
  script
    .runInThisContext()
    .call(module.exports, module.exports, Module.createRequire(file), module, file, dir, gateImport);
  if (cacheFile)
    trace(
      cachedData === undefined
        ? 'no code cache yet'
        : script.cachedDataRejected
          ? 'code cache turned down by this Node'
          : 'code cache used',
    );
  const writeCache =
    cacheFile && (cachedData === undefined || script.cachedDataRejected)
      ? () => {
          const temp = `${cacheFile}.${process.pid}.tmp`;
          try {
            writeFileSync(temp, script.createCachedData());
            renameSync(temp, cacheFile);
          } catch {
            // A read-only install: the bundle runs without its cache, as fast as before it.
            try {
              rmSync(temp, { force: true });
            } catch {
              // nothing was written
            }
          }
        }
      : undefined;
  return { exports: module.exports, writeCache };
}

const trace = (message) => {
  if (isGate && process.env.AGENTGOV_GATE_TRACE === '1') process.stderr.write(`agentgov gate: ${message}\n`);
};

/** Any exit but 0 or 2 under an agent's hook lets the call run ungoverned: a broken build blocks it. */
function fail(error) {
  process.stderr.write(
    `agentgov: ${isGate ? 'internal error, the call is blocked: ' : ''}${(error && error.stack) || error}\n`,
  );
  process.exit(isGate ? 2 : 70);
}

async function start() {
  const bundleOff = process.env.AGENTGOV_GATE_BUNDLE === '0';
  const bundle = isGate && !bundleOff ? freshGateBundle() : undefined;
  let hook;
  let writeCache;
  if (bundle) {
    try {
      ({ exports: hook, writeCache } = loadGateBundle(bundle));
    } catch (error) {
      trace(`the gate bundle cannot be loaded (${(error && error.message) || error}); using ${main}`);
      hook = undefined; // main.js decides, as it would without a bundle
    }
  } else if (isGate)
    trace(
      `${bundleOff ? 'gate bundle off (AGENTGOV_GATE_BUNDLE=0)' : 'no gate bundle made from this build'}; ` +
        `using ${main}`,
    );
  const format = hook && typeof hook.gateFormatOf === 'function' ? hook.gateFormatOf(process.argv.slice(3)) : undefined;
  if (format) {
    trace('running from the gate bundle');
    await hook.runGateHook(process.argv.slice(2), format);
    if (writeCache) writeCache();
  } else await import(pathToFileURL(main).href);
}

start().catch(fail);
