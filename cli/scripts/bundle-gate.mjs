// Bundles the gate's hook path (`agentgov gate --stdin`) into one ES module, so that a hook call
// reads one file instead of ~40: module resolution and file reads were most of the gate's start-up
// with watch down (bench/gate). bin/agentgov.js loads the bundle only while every file it was made
// from is unchanged (the stamp below), and dist/src/main.js otherwise.
//
// What the full start needs (the plugin host, config loading, the CLI) stays outside: those
// modules are imported from dist/src as they are. Every `import.meta.url` of a bundled module is
// rewritten to the URL of its own file in dist/src, so paths computed from it do not move.
//
//   node scripts/bundle-gate.mjs          (run by `npm run build` after `tsc -b`)
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const cliDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distSrc = path.join(cliDir, 'dist', 'src');
const outDir = path.join(cliDir, 'dist', 'gate-bundle');

/** Loaded by dynamic import only on the full start or the CLI: kept as the files tsc wrote. */
const OUTSIDE = ['cli.js', 'gate/assess-full.js', 'gate/assess-subset.js', 'gate/config-file.js', 'config-trust.js', 'risk/rules.js'].map((f) => path.join(distSrc, f));

const relativeUrl = (from, to) => {
  const rel = path.relative(from, to).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
};

const keepOutside = {
  name: 'keep-outside',
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) => {
      const target = path.resolve(args.resolveDir, args.path);
      if (!OUTSIDE.includes(target)) return undefined;
      return { path: relativeUrl(outDir, target), external: true };
    });
    // Bare packages stay outside (native addons, yaml, the plugin host), except @agentgov/core's
    // subpath modules (node built-ins only); its index, which loads everything, stays outside.
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      if (/^@agentgov\/core\/[a-z-]+$/.test(args.path)) return undefined;
      return { path: args.path, external: true };
    });
    b.onLoad({ filter: /\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'js' };
      const own = JSON.stringify(relativeUrl(outDir, args.path));
      return { contents: text.replaceAll('import.meta.url', `new URL(${own}, import.meta.url).href`), loader: 'js' };
    });
  },
};

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const started = Date.now();
const result = await build({
  absWorkingDir: cliDir,
  entryPoints: { gate: path.join(distSrc, 'gate', 'hook-main.js') },
  outdir: outDir,
  bundle: true,
  splitting: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunk-[hash]',
  plugins: [keepOutside],
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
});
// The files the bundle was made from, with their size and time: bin/agentgov.js uses the bundle
// only while every one of them is unchanged (a rebuild of any of them without this script would
// otherwise leave the hook running old code).
const inputs = Object.keys(result.metafile.inputs).map((f) => path.resolve(cliDir, f));
const built_from = inputs.map((file) => {
  const stat = statSync(file);
  return [relativeUrl(outDir, file), stat.mtimeMs, stat.size];
});
writeFileSync(path.join(outDir, 'stamp.json'), `${JSON.stringify({ built_from })}\n`);
console.log(`gate bundle: ${inputs.length} modules → ${Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.mjs')).length} file(s) in ${path.relative(cliDir, outDir)} (${Date.now() - started} ms)`);
