import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withDirectoryLock } from './directory-lock.js';

/**
 * npm packages that tests install into temp projects (vitest, a project's own test runner): one
 * directory per checkout, `<monorepo>/.node-test` (gitignored), or `AGENTGOV_TEST_NODE_PACKAGES`.
 * Installed on first use from the package registry with npm, so a fresh machine needs nothing more.
 */
export function testNodePackagesDir(): string {
  return (
    process.env['AGENTGOV_TEST_NODE_PACKAGES'] ?? fileURLToPath(new URL('../../../../.node-test', import.meta.url))
  );
}

/** `name@version` → whether `node_modules/name` holds exactly that version. */
function installed(nodeModules: string, spec: string): boolean {
  const at = spec.lastIndexOf('@');
  const [name, version] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, undefined];
  try {
    const found = (JSON.parse(readFileSync(join(nodeModules, name, 'package.json'), 'utf8')) as { version: string })
      .version;
    return version === undefined || found === version;
  } catch {
    return false;
  }
}

/**
 * Makes sure `<dir>/node_modules` has each package (`vitest@4.1.12`: pin versions), installing what
 * is missing with npm; idempotent and safe across concurrent test processes. Returns that
 * `node_modules`. Throws with npm's own message when the install fails — tests that need the
 * packages fail with it, they never skip.
 */
export function ensureTestNodePackages(packages: string[], dir = testNodePackagesDir()): string {
  const nodeModules = join(dir, 'node_modules');
  const missing = () => packages.filter((spec) => !installed(nodeModules, spec));
  if (missing().length === 0) return nodeModules;
  return withDirectoryLock(dir, 'installing npm packages', () => {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, 'package.json')))
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'agentgov-test-node-packages', private: true }));
    const todo = missing();
    if (todo.length) {
      // npm reads the user's registry configuration and keeps its cache in the real home, which tests otherwise hide.
      const realHome = process.env['AGENTGOV_TEST_REAL_HOME'];
      try {
        execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', ...todo], {
          cwd: dir,
          stdio: 'pipe',
          timeout: 9 * 60_000,
          env: realHome ? { ...process.env, HOME: realHome } : process.env,
        });
      } catch (error) {
        const e = error as { stderr?: Buffer; message: string };
        throw new Error(
          `npm install ${todo.join(' ')} in ${dir} failed: ` +
            `${e.stderr?.toString().trim().split('\n').slice(-5).join('\n') || e.message}`,
        );
      }
    }
    const still = missing();
    if (still.length)
      throw new Error(`npm installed ${todo.join(', ')} into ${dir} but ${still.join(', ')} is missing`);
    return nodeModules;
  });
}

/** Links `<project>/node_modules` to the shared test packages (`ensureTestNodePackages`). */
export function linkTestNodePackages(project: string, packages: string[]): void {
  symlinkSync(ensureTestNodePackages(packages), join(project, 'node_modules'), 'dir');
}
