#!/usr/bin/env node
// Builds one combined repository out of projects already checked out under bench/.work/<name>
// (each from its `fetch` mirror through `git archive`, see RESULTS.md): bench/.work/<out>/<name>/…,
// committed so discovery goes through git. Nested .gitattributes are dropped (sphinx's asks git to
// re-encode test files, which `git add` refuses).
// usage: node bench/index/combined.mjs <out> <name> [name ...]
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { WORK_DIR } from '../repos.mjs';

export const SCALE_PROJECTS = [
  'vue',
  'sympy',
  'astropy',
  'sphinx',
  'pylint',
  'xarray',
  'pytest',
  'requests',
  'mobx',
  'click',
  'dayjs',
];

export function makeCombined(out, names) {
  const dir = join(WORK_DIR, out);
  if (existsSync(join(dir, '.git'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  for (const name of names) {
    const source = join(WORK_DIR, name);
    if (!existsSync(source)) throw new Error(`${source} missing: check it out from its fetch mirror first`);
    cpSync(source, join(dir, name), {
      recursive: true,
      filter: (path) => !path.endsWith('/.git') && !path.endsWith('/.agentgov') && !path.endsWith('/.gitattributes'),
    });
  }
  const git = (...args) =>
    execFileSync('git', ['-c', 'user.email=bench@localhost', '-c', 'user.name=bench', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', `combined: ${names.join(' ')}`);
  return dir;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const [out, ...names] = process.argv.slice(2);
  console.log(makeCombined(out, names.length > 0 ? names : SCALE_PROJECTS));
}
