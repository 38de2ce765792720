/**
 * The real agents, installed on first use: `npm ci` of this package's own lock file into
 * `e2e/agents/.agents/` (gitignored; `AGENTGOV_E2E_AGENTS_DIR` overrides), reused while the lock is
 * unchanged (a stamp holds the lock's SHA-256). Parallel test processes install one at a time (a
 * lock directory beside it). A failed install throws with npm's own message: the tests that need the
 * agents fail with it, they never skip.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withDirectoryLock } from '@agentgov/core/testing';

export const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const LOCK_STALE_MS = 15 * 60_000;

export function agentsDir() {
  return process.env['AGENTGOV_E2E_AGENTS_DIR'] ?? join(PACKAGE_DIR, '.agents');
}

function lockHash() {
  return createHash('sha256')
    .update(readFileSync(join(PACKAGE_DIR, 'package-lock.json')))
    .digest('hex');
}

function stampFile(dir) {
  return join(dir, '.installed-lock.sha256');
}

function fresh(dir, hash) {
  try {
    return readFileSync(stampFile(dir), 'utf8').trim() === hash;
  } catch {
    return false;
  }
}

/** Makes sure the pinned agents are installed; returns their `node_modules`. */
export function ensureAgents() {
  const dir = agentsDir();
  const hash = lockHash();
  if (fresh(dir, hash)) return join(dir, 'node_modules');
  return withDirectoryLock(
    dir,
    'installing the agents',
    () => {
      if (fresh(dir, hash)) return join(dir, 'node_modules');
      mkdirSync(dir, { recursive: true });
      rmSync(stampFile(dir), { force: true });
      const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'));
      delete manifest.scripts;
      writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      copyFileSync(join(PACKAGE_DIR, 'package-lock.json'), join(dir, 'package-lock.json'));
      // npm reads the user's registry configuration and keeps its cache in the real home, which tests may hide.
      const realHome = process.env['AGENTGOV_TEST_REAL_HOME'];
      try {
        execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
          cwd: dir,
          stdio: 'pipe',
          timeout: 15 * 60_000,
          env: realHome ? { ...process.env, HOME: realHome } : process.env,
        });
      } catch (error) {
        const tail = error.stderr?.toString().trim().split('\n').slice(-8).join('\n');
        throw new Error(`npm ci of the pinned agents in ${dir} failed: ${tail || error.message}`);
      }
      writeFileSync(stampFile(dir), `${hash}\n`);
      return join(dir, 'node_modules');
    },
    LOCK_STALE_MS,
  );
}

/** Where each agent's executable is, in the installed `node_modules`. */
export function agentBin(name) {
  const nodeModules = ensureAgents();
  const bins = {
    'claude-code': join(nodeModules, '@anthropic-ai', 'claude-code', 'bin', 'claude.exe'),
    codex: join(nodeModules, '@openai', 'codex', 'bin', 'codex.js'),
    'gemini-cli': join(nodeModules, '.bin', 'gemini'),
    'copilot-cli': join(nodeModules, '.bin', 'copilot'),
  };
  const bin = bins[name];
  if (!bin) throw new Error(`no agent '${name}' in the e2e package; known: ${Object.keys(bins).join(', ')}`);
  if (!existsSync(bin)) throw new Error(`the ${name} executable ${bin} is missing after npm ci`);
  return bin;
}
