/**
 * A real, throw-away PostgreSQL server for tests and benches: `initdb` into a temp directory,
 * `pg_ctl start` on a free loopback port, password authentication (scram-sha-256) for a
 * superuser. Run as root, the server runs as the `postgres` OS user (initdb refuses root); as
 * anyone else, as that user. No PostgreSQL on the machine is a clear error saying how to install
 * it, never a skipped test.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export const INSTALL_HINT =
  'PostgreSQL server binaries (initdb, pg_ctl, postgres) were not found. Install ' +
  'them (Debian/Ubuntu: apt-get install postgresql; Fedora: dnf install postgresql-server; ' +
  'macOS: brew install postgresql) or point AGENTGOV_PG_BINDIR at the directory ' +
  'holding them.';

/** Versioned install roots (`<root>/<version>/bin`) and plain bin directories searched after pg_config. */
export const INSTALL_PLACES = {
  roots: ['/usr/lib/postgresql', '/usr/local/opt', '/opt/homebrew/opt'],
  dirs: ['/usr/local/pgsql/bin', '/usr/pgsql/bin', '/usr/bin'],
};

/**
 * Where initdb and pg_ctl live: $AGENTGOV_PG_BINDIR, `pg_config --bindir`, then the usual install paths (newest version
 * first).
 */
export function findPostgresBinaries(
  env: NodeJS.ProcessEnv = process.env,
  places: { roots: string[]; dirs: string[] } = INSTALL_PLACES,
): string {
  const candidates: string[] = [];
  if (env['AGENTGOV_PG_BINDIR']) candidates.push(env['AGENTGOV_PG_BINDIR']);
  try {
    candidates.push(
      execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
  } catch {
    // no pg_config on PATH
  }
  for (const root of places.roots) {
    if (!existsSync(root)) continue;
    const versions = readdirSync(root)
      .filter((name) => /^(postgresql@?)?\d+/.test(name) || /^\d+$/.test(name))
      .sort((a, b) => Number(b.replace(/\D+/g, '')) - Number(a.replace(/\D+/g, '')));
    for (const v of versions) candidates.push(join(root, v, 'bin'));
  }
  candidates.push(...places.dirs);
  const found = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (!found) throw new Error(INSTALL_HINT);
  return found;
}

/** A free TCP port on 127.0.0.1 (asked of the OS). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface PostgresCluster {
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** A connection URL for `database` (default `postgres`), with this cluster's password unless one is given. */
  url(database?: string, password?: string): string;
  /** Creates a database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Runs SQL through a fresh connection and returns the rows. */
  query<Row = Record<string, unknown>>(database: string, text: string, values?: unknown[]): Promise<Row[]>;
  /** `pg_ctl stop -m fast`; the data stays. */
  stop(): void;
  /** `pg_ctl start` again on the same port. */
  start(): void;
  /** Stops the server and deletes its data directory. */
  destroy(): void;
}

function runAs(owner: string | undefined, command: string, args: string[]): void {
  const [file, argv] = owner ? ['runuser', ['-u', owner, '--', command, ...args]] : [command, args];
  const result = spawnSync(file, argv, { encoding: 'utf8' });
  if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}${result.stderr}`);
}

/** Initialises and starts a cluster. */
export async function startPostgres(options: { env?: NodeJS.ProcessEnv } = {}): Promise<PostgresCluster> {
  const bin = findPostgresBinaries(options.env);
  const root = userInfo().uid === 0;
  const owner = root ? 'postgres' : undefined;
  let ownerIds: { uid: number; gid: number } | undefined;
  if (owner) {
    try {
      ownerIds = {
        uid: Number(execFileSync('id', ['-u', owner], { encoding: 'utf8' })),
        gid: Number(execFileSync('id', ['-g', owner], { encoding: 'utf8' })),
      };
    } catch {
      throw new Error(
        `running as root, the test server must run as the '` +
          `${owner}' OS user (initdb refuses root), and there is none: install PostgreSQL ` +
          `(apt-get install postgresql creates it) or run the tests as a normal user`,
      );
    }
  }
  // /tmp, not the test's private temp root: the server's OS user must be able to reach it.
  const dir = mkdtempSync(join(tmpdir(), 'agentgov-pg-'));
  const data = join(dir, 'data');
  const socketDir = join(dir, 'sock');
  const pwfile = join(dir, 'pwfile');
  const user = 'agentgov';
  const password = `pw-${Math.random().toString(36).slice(2, 12)}`;
  writeFileSync(pwfile, `${password}\n`);
  execFileSync('mkdir', ['-p', socketDir]);
  chmodSync(dir, 0o700);
  if (ownerIds) for (const p of [dir, socketDir, pwfile]) chownSync(p, ownerIds.uid, ownerIds.gid);
  runAs(owner, join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    user,
    `--pwfile=${pwfile}`,
    '--auth=scram-sha-256',
    '--encoding=UTF8',
    '--no-locale',
    '--no-sync',
  ]);
  const port = await freePort();
  const serverOptions =
    `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c fsync=off -c ` +
    `synchronous_commit=off -c full_page_writes=off -c max_connections=60`;
  const start = () =>
    runAs(owner, join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-o',
      serverOptions,
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-t',
      '60',
      'start',
    ]);
  const stop = () => runAs(owner, join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  let running = true;
  const url = (database = 'postgres', pw = password) =>
    `postgres://${user}:${encodeURIComponent(pw)}@127.0.0.1:${port}/${database}`;
  const query = async <Row>(database: string, text: string, values: unknown[] = []): Promise<Row[]> => {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: url(database) });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as Row[];
    } finally {
      await client.end();
    }
  };
  return {
    port,
    user,
    password,
    url,
    query,
    async createDatabase(name) {
      await query('postgres', `CREATE DATABASE "${name.replaceAll('"', '')}"`);
      return url(name);
    },
    stop() {
      if (running) stop();
      running = false;
    },
    start() {
      if (!running) start();
      running = true;
    },
    destroy() {
      try {
        if (running) stop();
      } finally {
        running = false;
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
