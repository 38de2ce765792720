import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withDirectoryLock } from './directory-lock.js';

/** The monorepo this module was built in (core/dist/src/testing → the root). */
const MONOREPO = fileURLToPath(new URL('../../../../', import.meta.url));

export interface PackedInstall {
  /** The directory the tarballs were installed into (a project of its own, as a user's). */
  dir: string;
  /** `<dir>/node_modules/.bin/agentgov`, the bin npm linked. */
  bin: string;
  /** The tarballs, named by npm. */
  tarballs: string[];
  /** Whether this call installed (false: an install of the same tarballs was there). */
  installed: boolean;
}

/**
 * Packs every workspace of the monorepo (`npm pack --workspaces`, from its current build) and
 * installs the tarballs into an empty project, as a user installs the CLI from the registry: no
 * workspace links, no root overrides, npm's own layout. The install is kept in
 * `<monorepo>/.packed-test/<hash of the tarballs>` (gitignored, not under /tmp) and reused while
 * the tarballs are the same. Throws with npm's own message when packing or installing fails.
 */
export function packedInstall(base = join(MONOREPO, '.packed-test')): PackedInstall {
  const packs = join(base, 'tarballs');
  return withDirectoryLock(
    base,
    'packing and installing the workspaces',
    () => {
      rmSync(packs, { recursive: true, force: true });
      mkdirSync(packs, { recursive: true });
      npm(['pack', '--workspaces', '--pack-destination', packs, '--loglevel=error'], MONOREPO);
      const tarballs = readdirSync(packs)
        .filter((name) => name.endsWith('.tgz'))
        .sort();
      const hash = createHash('sha256');
      for (const name of tarballs) hash.update(name).update(readFileSync(join(packs, name)));
      const dir = join(base, `install-${hash.digest('hex').slice(0, 12)}`);
      const bin = join(dir, 'node_modules', '.bin', 'agentgov');
      if (existsSync(join(dir, '.complete')) && existsSync(bin)) return { dir, bin, tarballs, installed: false };
      for (const old of readdirSync(base)) if (old.startsWith('install-')) rmSync(join(base, old), { recursive: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'agentgov-packed-test', private: true })}\n`);
      npm(
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
          '--loglevel=error',
          ...tarballs.map((t) => join(packs, t)),
        ],
        dir,
      );
      writeFileSync(join(dir, '.complete'), `${tarballs.join('\n')}\n`);
      return { dir, bin, tarballs, installed: true };
    },
    45 * 60_000,
  );
}

function npm(args: string[], cwd: string): void {
  // npm keeps its cache and registry settings in the real home, which tests otherwise hide; native
  // addons build against Node's own headers.
  const realHome = process.env['AGENTGOV_TEST_REAL_HOME'];
  const env = { ...process.env, ...(realHome ? { HOME: realHome } : {}), npm_config_nodedir: '/usr' };
  try {
    execFileSync('npm', args, { cwd, stdio: 'pipe', timeout: 40 * 60_000, env });
  } catch (error) {
    const e = error as { stderr?: Buffer; message: string };
    const tail = e.stderr?.toString().trim().split('\n').slice(-8).join('\n');
    throw new Error(`npm ${args.slice(0, 2).join(' ')} in ${cwd} failed: ${tail || e.message}`);
  }
}
