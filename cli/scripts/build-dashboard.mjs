// Builds the dashboard page (`agentgov dashboard`) into dist/dashboard: the page's TypeScript is
// type-checked (web/tsconfig.json, DOM types), then bundled with its charting library into one
// script, so the page needs nothing from the network. Run by `npm run build` after `tsc -b`.
//
//   node scripts/build-dashboard.mjs
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const cliDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.join(cliDir, 'web');
const outDir = path.join(cliDir, 'dist', 'dashboard');
const started = Date.now();

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const check = spawnSync(process.execPath, [tsc, '-p', path.join(webDir, 'tsconfig.json')], { stdio: 'inherit' });
if (check.status !== 0) {
  console.error('dashboard page: type errors (above); nothing was built');
  process.exit(1);
}

mkdirSync(outDir, { recursive: true });
const result = await build({
  entryPoints: [path.join(webDir, 'src', 'main.ts')],
  outfile: path.join(outDir, 'app.js'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome120', 'firefox120', 'safari17'],
  minify: true,
  legalComments: 'linked',
  metafile: true,
  logLevel: 'warning',
});
copyFileSync(path.join(webDir, 'index.html'), path.join(outDir, 'index.html'));
copyFileSync(path.join(webDir, 'app.css'), path.join(outDir, 'app.css'));
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`dashboard page → dist/dashboard (${Math.round(bytes / 1024)} KiB, ${Date.now() - started} ms)`);
