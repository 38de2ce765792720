/**
 * The PostgreSQL sink end to end: the real `agentgov` binary, a real PostgreSQL server started
 * for the suite (initdb + pg_ctl; see @agentgov/plugin-sink-postgres/testing), real captures.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import { freePort, startPostgres, type PostgresCluster } from '@agentgov/plugin-sink-postgres/testing';
import { expect } from 'chai';
import { runCli } from '../support/cli-process.js';
import { startDaemon } from '../support/daemon.js';

interface SinkLagJson {
  sink: string;
  pending: number;
  delivered: number;
  failures: number;
  last_error: string | null;
}

interface Home {
  root: string;
  env: NodeJS.ProcessEnv;
  capture: string;
}

/** A user whose config sends everything to PostgreSQL; the URL comes from $AGENTGOV_TEST_PG_URL through `${…}`. */
function makeHome(prefix: string, url: string, extra = ''): Home {
  const root = makeTempDir(prefix);
  const agentgov = join(root, '.agentgov');
  mkdirSync(agentgov, { recursive: true, mode: 0o700 });
  mkdirSync(join(root, '.agentx', 'projects', '-work-pg'), { recursive: true });
  writeFileSync(
    join(agentgov, 'config.yaml'),
    [
      'bundled_plugins: all',
      'plugins:',
      "  - plugin: '@agentgov/plugin-sink-postgres'",
      '    options:',
      "      url: '${AGENTGOV_TEST_PG_URL}'",
      '      retry: { initial_ms: 100, max_ms: 1000 }',
      '      pool: { connect_timeout_ms: 3000 }',
      extra,
    ].join('\n'),
  );
  return {
    root,
    env: isolatedEnv(root, { AGENTGOV_TEST_PG_URL: url }),
    capture: join(root, '.agentx', 'projects', '-work-pg', 'sess-pg.jsonl'),
  };
}

/** One agentx-code transcript line with one Bash tool call. */
const toolUseLine = (i: number) =>
  `${JSON.stringify({
    type: 'assistant',
    sessionId: 'sess-pg',
    uuid: `u-${i}`,
    timestamp: new Date(Date.UTC(2026, 10, 23, 8, 0, 0, i)).toISOString(),
    cwd: '/work/pg',
    message: {
      role: 'assistant',
      content: [
        {
          type: 'tool_use',
          id: `toolu_${i}`,
          name: 'Bash',
          input: { command: i % 10 === 0 ? `rm -rf /tmp/x${i}` : `echo ${i}` },
        },
      ],
    },
  })}\n`;
const lines = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => toolUseLine(from + k)).join('');
const idsOf = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => `agentx-code:sess-pg:toolu_${from + k}`).sort();

async function status(home: Home): Promise<{ events: number; sinks: SinkLagJson[] }> {
  const result = await runCli(['status', '--json-output'], { env: home.env, cwd: home.root });
  expect(result.code, result.stderr).to.equal(0);
  return JSON.parse(result.stdout) as { events: number; sinks: SinkLagJson[] };
}

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('sink-postgres end to end (real agentgov, real PostgreSQL)', function () {
  this.timeout(180_000);
  let cluster: PostgresCluster;
  let n = 0;
  const database = async () => {
    const name = `e2e_${(n += 1)}`;
    return { name, url: await cluster.createDatabase(name) };
  };
  // Before the sink's first write the schema does not exist yet: nothing is stored.
  const storedIds = async (db: string) =>
    (
      await cluster
        .query<{ id: string }>(
          db,
          "SELECT id FROM agentgov.events WHERE to_regclass('agentgov.events') IS NOT NULL ORDER BY id",
        )
        .catch(() => [])
    ).map((r) => r.id);
  const assessmentCount = async (db: string) =>
    Number((await cluster.query<{ n: string }>(db, 'SELECT count(*) AS n FROM agentgov.assessments'))[0]!.n);

  before(async () => {
    cluster = await startPostgres();
  });
  after(() => cluster?.destroy());

  it('replay writes each event once, and a second replay adds nothing', async () => {
    const { name, url } = await database();
    const home = makeHome('pg-replay-', url);
    writeFileSync(home.capture, lines(0, 300));
    const first = await runCli(['replay', join(home.root, '.agentx', 'projects'), '--adapter', 'agentx-code'], {
      env: home.env,
      cwd: home.root,
    });
    expect(first.code, first.stderr).to.equal(0);
    expect(first.stderr).to.contain('300 new event(s)').and.contain('sink postgres: outbox delivered');
    expect(await storedIds(name)).to.deep.equal(idsOf(0, 300));
    expect(await assessmentCount(name)).to.equal(300);
    const storedAt = await cluster.query(name, 'SELECT max(stored_at) AS at, count(*) AS n FROM agentgov.events');

    const second = await runCli(['replay', join(home.root, '.agentx', 'projects'), '--adapter', 'agentx-code'], {
      env: home.env,
      cwd: home.root,
    });
    expect(second.code, second.stderr).to.equal(0);
    expect(second.stderr)
      .to.contain('0 new event(s), 300 already recorded')
      .and.contain('sink postgres: outbox delivered');
    expect(await storedIds(name)).to.deep.equal(idsOf(0, 300));
    expect(await assessmentCount(name)).to.equal(300);
    expect(
      await cluster.query(name, 'SELECT max(stored_at) AS at, count(*) AS n FROM agentgov.events'),
      'no row rewritten',
    ).to.deep.equal(storedAt);
    const [lag] = (await status(home)).sinks;
    expect(lag).to.include({ sink: 'postgres', pending: 0, failures: 0, last_error: null });
  });

  it('watch keeps ingesting and gating while the database is stopped, and every event arrives once within a minute of its restart', async () => {
    const { name, url } = await database();
    const home = makeHome('pg-outage-', url);
    writeFileSync(home.capture, lines(0, 50));
    const watch = startDaemon(['watch', '--no-score'], { env: home.env, cwd: home.root });
    try {
      await watch.waitFor(/watching /);
      await until('the first 50 events in PostgreSQL', 30_000, async () =>
        (await storedIds(name)).length === 50 ? true : undefined,
      );
      cluster.stop();
      appendFileSync(home.capture, lines(50, 150));
      const gate = await runCli(['gate', '--stdin', '--format', 'json'], {
        env: home.env,
        cwd: home.root,
        input: JSON.stringify({ tool_name: 'Bash', arguments: { command: 'git status' }, session_id: 'sess-gate' }),
      });
      expect(gate.code, gate.stderr).to.equal(0);
      expect((JSON.parse(gate.stdout) as { verdict: { decision: string } }).verdict.decision).to.equal('allow');
      const down = await until('ingestion and a recorded failure during the outage', 30_000, async () => {
        const s = await status(home);
        return s.events === 151 && (s.sinks[0]?.failures ?? 0) > 0 ? s : undefined;
      });
      expect(down.sinks[0]!.pending).to.equal(101);
      expect(down.sinks[0]!.last_error).to.match(/^postgres postgres:\/\/agentgov:\*\*\*@127\.0\.0\.1:\d+\/e2e_\d+: /);
      expect(down.sinks[0]!.last_error).not.to.include(cluster.password);

      cluster.start();
      const restarted = Date.now();
      await until('every event in PostgreSQL after the restart', 60_000, async () =>
        (await storedIds(name)).length === 151 ? true : undefined,
      );
      expect(Date.now() - restarted).to.be.below(60_000);
      expect(await storedIds(name)).to.deep.equal(
        [...idsOf(0, 150), ...(await storedIds(name)).filter((id) => id.includes('sess-gate'))].sort(),
      );
      expect(await assessmentCount(name)).to.equal(151);
      expect(
        await cluster.query(name, "SELECT kind, verdict FROM agentgov.assessments WHERE kind = 'gate'"),
      ).to.deep.equal([{ kind: 'gate', verdict: 'allow' }]);
    } finally {
      cluster.start(); // whatever failed, the next test needs the server
      expect(await watch.stop('SIGTERM')).to.equal(0);
    }
    expect(watch.stderr()).not.to.include(cluster.password);
    expect((await status(home)).sinks[0]).to.include({ pending: 0, failures: 0 });
  });

  it('kill -9 of watch while it delivers loses and duplicates nothing', async () => {
    const { name, url } = await database();
    const total = 4000;
    const home = makeHome('pg-kill-', url);
    // Small batches: the kill lands while batches are in flight between the outbox and the database.
    writeFileSync(
      join(home.root, '.agentgov', 'config.yaml'),
      `${(await import('node:fs')).readFileSync(join(home.root, '.agentgov', 'config.yaml'), 'utf8').replace('retry:', 'batch_size: 20\n      retry:')}`,
    );
    writeFileSync(home.capture, lines(0, total));
    const watch = startDaemon(['watch', '--no-score'], { env: home.env, cwd: home.root });
    await until('delivery under way', 60_000, async () => {
      const stored = (await storedIds(name)).length;
      return stored > 0 && stored < total ? stored : undefined;
    });
    expect(await watch.stop('SIGKILL')).to.equal(null);
    const atKill = await status(home);
    expect(atKill.sinks[0]!.pending, 'records left in the outbox at the kill').to.be.above(0);

    const restart = startDaemon(['watch', '--no-score'], { env: home.env, cwd: home.root });
    try {
      await until('every event delivered after the restart', 90_000, async () =>
        (await status(home)).events === total && (await status(home)).sinks[0]!.pending === 0 ? true : undefined,
      );
    } finally {
      expect(await restart.stop('SIGTERM')).to.equal(0);
    }
    expect(await storedIds(name)).to.deep.equal(idsOf(0, total));
    expect(await assessmentCount(name)).to.equal(total);
  });

  it('a wrong password or an unreachable host is a clear error in status, never a crash', async () => {
    // Wrong password: replay records everything in system.db, keeps it in the outbox, says why.
    const wrong = makeHome('pg-auth-', cluster.url('postgres', 'not-the-Password'));
    writeFileSync(wrong.capture, lines(0, 20));
    const replay = await runCli(['replay', join(wrong.root, '.agentx', 'projects'), '--adapter', 'agentx-code'], {
      env: wrong.env,
      cwd: wrong.root,
    });
    expect(replay.code, replay.stderr).to.equal(0);
    expect(replay.stderr).to.match(
      /sink postgres: 20 record\(s\) wait in the outbox \(postgres postgres:\/\/agentgov:\*\*\*@127\.0\.0\.1:\d+\/postgres: authentication failed/,
    );
    expect(replay.stderr).not.to.include('not-the-Password');
    const text = await runCli(['status'], { env: wrong.env, cwd: wrong.root });
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout)
      .to.match(/outbox sinks \(1\):/)
      .and.match(/\npostgres\s+20\s+\d+s\s+0\s+0\s+-\s+\d+ \(next try [^)]+\)\n/);
    expect(text.stdout).to.match(
      /\n {2}postgres last error \([^)]+\): postgres postgres:\/\/agentgov:\*\*\*@127\.0\.0\.1:\d+\/postgres: authentication failed \(wrong password for the user\?\): .*\[28P01\]\n/,
    );
    expect(text.stdout).not.to.include('not-the-Password');

    // Unreachable host: watch keeps running and ingesting; status names the refusal.
    const unreachable = makeHome(
      'pg-down-',
      `postgres://agentgov:${cluster.password}@127.0.0.1:${await freePort()}/db`,
    );
    writeFileSync(unreachable.capture, lines(0, 10));
    const watch = startDaemon(['watch', '--no-score'], { env: unreachable.env, cwd: unreachable.root });
    try {
      await watch.waitFor(/watching /);
      const s = await until('the failure in status', 30_000, async () => {
        const now = await status(unreachable);
        return now.events === 10 && now.sinks[0]?.last_error ? now : undefined;
      });
      expect(s.sinks[0]!.last_error).to.match(
        /connection refused \(is PostgreSQL running and listening there\?\).*\[ECONNREFUSED\]$/,
      );
      expect(s.sinks[0]!.last_error).not.to.include(cluster.password);
      expect(watch.child.exitCode).to.equal(null);
    } finally {
      expect(await watch.stop('SIGTERM')).to.equal(0);
    }
    expect(watch.stderr())
      .to.match(/sink 'postgres' failed: .*connection refused/)
      .and.not.include(cluster.password);
  });
});
