import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withDirectoryLock } from './directory-lock.js';

/**
 * The virtual environment tests use for Python tools (ruff, pytest, coverage): one per checkout,
 * at `<monorepo>/.venv-test` (gitignored), or `AGENTGOV_TEST_VENV`. Created on first use from the
 * package registry with pip, so a fresh machine needs nothing preinstalled but python3.
 */
export function testVenvDir(): string {
  return process.env['AGENTGOV_TEST_VENV'] ?? fileURLToPath(new URL('../../../../.venv-test', import.meta.url));
}

/**
 * pip reads the user's own pip config (index mirrors, find-links) from the real home, which tests
 * otherwise hide; `--no-cache-dir` keeps it from writing there.
 */
function pipEnv(): NodeJS.ProcessEnv {
  const realHome = process.env['AGENTGOV_TEST_REAL_HOME'];
  return realHome ? { ...process.env, HOME: realHome } : process.env;
}

function run(command: string, args: string[]): void {
  try {
    execFileSync(command, args, { stdio: 'pipe', timeout: 9 * 60_000, env: pipEnv() });
  } catch (error) {
    const e = error as { stderr?: Buffer; message: string };
    throw new Error(
      `${command} ${args.join(' ')} failed: ` +
        `${e.stderr?.toString().trim().split('\n').slice(-5).join('\n') || e.message}`,
    );
  }
}

/**
 * Makes sure the test venv (or the venv at `dir`, e.g. one another package's tests set up) exists
 * and has each package's console script (`ruff` → `bin/ruff`),
 * installing what is missing with pip; idempotent and safe across concurrent test processes.
 * Returns the venv's `bin` directory. Throws with pip's own message when the install fails —
 * tests that need the tools fail with it, they never skip.
 */
export function ensureTestVenv(packages: string[], dir = testVenvDir()): string {
  const bin = join(dir, 'bin');
  const missing = () => packages.filter((p) => !existsSync(join(bin, p)));
  if (missing().length === 0) return bin;
  return withDirectoryLock(dir, 'installing Python tools', () => {
    if (!existsSync(join(bin, 'python'))) run('python3', ['-m', 'venv', dir]);
    const todo = missing();
    if (todo.length) run(join(bin, 'python'), ['-m', 'pip', 'install', '--quiet', '--no-cache-dir', ...todo]);
    const still = missing();
    if (still.length)
      throw new Error(
        `pip installed ${todo.join(', ')} into ${dir} but ${still.map((p) => `bin/${p}`).join(', ')} is missing`,
      );
    return bin;
  });
}
