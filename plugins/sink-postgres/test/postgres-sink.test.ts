import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import type { OutboxRecord } from '@agentgov/core';
import { createPostgresSink, describeFailure, redactUrl, storable } from '../src/index.js';
import {
  findPostgresBinaries,
  freePort,
  INSTALL_HINT,
  startPostgres,
  type PostgresCluster,
} from '../src/testing/index.js';

const record = (n: number, extra: Partial<OutboxRecord> = {}): OutboxRecord => ({
  kind: 'ingest',
  assessed_at: '2026-11-23T10:00:00.000Z',
  event: {
    id: `agentx-code:s1:toolu_${n}`,
    framework: 'agentx-code',
    session_id: 's1',
    timestamp: new Date(Date.UTC(2026, 10, 23, 9, 0, 0, n)).toISOString(),
    cwd: '/proj',
    tool_name: 'Bash',
    canonical_tool: 'shell',
    arguments: { command: `rm -rf build${n}` },
  },
  assessment: {
    score: 80,
    level: 'critical',
    action: 'deny',
    reason_code: 'destructive_delete',
    evidence: { rules: [{ rule_id: 'rm-rf', score: 80, reason_code: 'destructive_delete' }] },
  },
  ...extra,
});

describe('sink-postgres against a real PostgreSQL', function () {
  this.timeout(120_000);
  let cluster: PostgresCluster;
  let n = 0;
  const database = async () => cluster.createDatabase(`sink_${(n += 1)}`);

  before(async () => {
    cluster = await startPostgres();
  });
  after(() => cluster?.destroy());

  it('creates its schema on the first write and stores each event and assessment once, however often a batch is delivered', async () => {
    const url = await database();
    const sink = createPostgresSink({ url, machine: { hostname: 'build-7', user: 'ci' } }, process.cwd());
    try {
      const batch = [
        record(1),
        record(2),
        record(2, { kind: 'gate', verdict: { decision: 'deny', reason: 'policy', decided_by: 'policy' } }),
      ];
      expect(await sink.writeBatch(batch)).to.deep.equal({});
      expect(await sink.writeBatch(batch)).to.deep.equal({}); // a redelivery after a crash
      const events = await cluster.query<{ id: string; machine_id: string; occurred_at: Date }>(
        url.split('/').pop()!,
        'SELECT id, machine_id, occurred_at FROM agentgov.events ORDER BY id',
      );
      expect(events.map((e) => [e.id, e.machine_id])).to.deep.equal([
        ['agentx-code:s1:toolu_1', 'ci@build-7'],
        ['agentx-code:s1:toolu_2', 'ci@build-7'],
      ]);
      expect(events[0]!.occurred_at.toISOString()).to.equal(record(1).event.timestamp);
      const rows = await cluster.query<{ event_id: string; kind: string; verdict: string | null; evidence: unknown }>(
        url.split('/').pop()!,
        'SELECT event_id, kind, verdict, evidence FROM agentgov.assessments ORDER BY event_id, kind',
      );
      expect(rows.map((r) => [r.event_id, r.kind, r.verdict])).to.deep.equal([
        ['agentx-code:s1:toolu_1', 'ingest', null],
        ['agentx-code:s1:toolu_2', 'gate', 'deny'],
        ['agentx-code:s1:toolu_2', 'ingest', null],
      ]);
      expect(rows[0]!.evidence).to.deep.equal(record(1).assessment.evidence);
      const machines = await cluster.query(
        url.split('/').pop()!,
        'SELECT id, hostname, os_user FROM agentgov.machines',
      );
      expect(machines).to.deep.equal([{ id: 'ci@build-7', hostname: 'build-7', os_user: 'ci' }]);
    } finally {
      await sink.close();
    }
  });

  it('fills in a result that arrives later, and never overwrites one', async () => {
    const url = await database();
    const sink = createPostgresSink({ url }, process.cwd());
    try {
      await sink.writeBatch([record(1)]);
      await sink.writeBatch([
        record(1, { event: { ...record(1).event, result: { content: 'done', is_error: false } } }),
      ]);
      await sink.writeBatch([
        record(1, { event: { ...record(1).event, result: { content: 'other', is_error: true } } }),
      ]);
      const [row] = await cluster.query<{ result: unknown }>(
        url.split('/').pop()!,
        'SELECT result FROM agentgov.events',
      );
      expect(row!.result).to.deep.equal({ content: 'done', is_error: false });
    } finally {
      await sink.close();
    }
  });

  it('stores text PostgreSQL refuses (NUL, a lone surrogate) with U+FFFD in its place', async () => {
    const url = await database();
    const sink = createPostgresSink({ url }, process.cwd());
    try {
      const odd = record(9, { event: { ...record(9).event, arguments: { command: 'printf "a\u0000b\uD800c"' } } });
      expect(await sink.writeBatch([odd])).to.deep.equal({});
      const [row] = await cluster.query<{ arguments: { command: string } }>(
        url.split('/').pop()!,
        'SELECT arguments FROM agentgov.events',
      );
      expect(row!.arguments.command).to.equal('printf "a\uFFFDb\uFFFDc"');
      expect(storable({ a: ['x\u0000'] })).to.deep.equal({ a: ['x\uFFFD'] });
    } finally {
      await sink.close();
    }
  });

  it('two sinks starting at once migrate the schema once', async () => {
    const url = await database();
    const sinks = [1, 2, 3].map(() => createPostgresSink({ url }, process.cwd()));
    try {
      await Promise.all(sinks.map((s, i) => s.writeBatch([record(i)])));
      const [count] = await cluster.query<{ n: string }>(
        url.split('/').pop()!,
        'SELECT count(*) AS n FROM agentgov.events',
      );
      expect(count!.n).to.equal('3');
    } finally {
      await Promise.all(sinks.map((s) => s.close()));
    }
  });

  it('a server dropping a connection checked out mid-transaction fails that transaction, never the process', async () => {
    const url = await database();
    const sink = createPostgresSink({ url }, process.cwd());
    try {
      await sink.writeBatch([record(1)]);
      const store = await sink.store();
      const outcome = await store
        .transaction(async (tx) => {
          await tx.execute(sql`SELECT 1`);
          // The connection is checked out and idle between statements when the server ends it.
          await cluster.query(
            'postgres',
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'agentgov'",
          );
          await new Promise((resolve) => setTimeout(resolve, 300));
          await tx.execute(sql`SELECT 2`);
        })
        .then(
          () => 'committed',
          () => 'failed',
        );
      expect(outcome).to.equal('failed');
      expect(await sink.writeBatch([record(2)])).to.deep.equal({}); // the pool reconnects
    } finally {
      await sink.close();
    }
  });

  it('a wrong password is a clear error that never shows the password', async () => {
    const secret = 'Sup3rSecret-pw';
    const url = cluster.url('postgres', secret);
    const sink = createPostgresSink({ url, pool: { connect_timeout_ms: 5000 } }, process.cwd());
    try {
      const error = await sink.writeBatch([record(1)]).then(
        () => expect.fail('the write must fail'),
        (e: Error) => e,
      );
      expect(error.message).to.match(
        /^postgres postgres:\/\/agentgov:\*\*\*@127\.0\.0\.1:\d+\/postgres: authentication failed \(wrong password for the user\?\): .* \[28P01\]$/,
      );
      expect(error.message).not.to.include(secret);
      expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.to.include(secret);
    } finally {
      await sink.close();
    }
  });

  it('an unreachable server is a clear error', async () => {
    const url = `postgres://agentgov:hunter22@127.0.0.1:${await freePort()}/db`;
    const sink = createPostgresSink({ url }, process.cwd());
    const error = await sink.writeBatch([record(1)]).then(
      () => expect.fail('the write must fail'),
      (e: Error) => e,
    );
    expect(error.message).to.match(
      /^postgres postgres:\/\/agentgov:\*\*\*@127\.0\.0\.1:\d+\/db: connection refused \(is PostgreSQL running and listening there\?\): .*\[ECONNREFUSED\]$/,
    );
    expect(error.message).not.to.include('hunter22');
    await sink.close();
  });
});

describe('sink-postgres test server', () => {
  it('finds the server binaries (AGENTGOV_PG_BINDIR, pg_config, install paths), or says how to install them', () => {
    const found = findPostgresBinaries();
    expect(findPostgresBinaries({ PATH: '', AGENTGOV_PG_BINDIR: found }, { roots: [], dirs: [] })).to.equal(found);
    expect(() => findPostgresBinaries({ PATH: '' }, { roots: [], dirs: [] })).to.throw(INSTALL_HINT);
    expect(INSTALL_HINT).to.contain('apt-get install postgresql');
  });
});

describe('sink-postgres connection text', () => {
  it('redacts the password (and password-like query parameters) from a URL', () => {
    expect(redactUrl('postgres://u:p%40ss@db:5432/x?sslmode=require&password=zz')).to.equal(
      'postgres://u:***@db:5432/x?sslmode=require&password=***',
    );
    expect(redactUrl('postgres://u@db/x')).to.equal('postgres://u@db/x');
    expect(redactUrl('not a url with secret')).to.equal('(a postgres URL that does not parse)');
  });

  it('scrubs the password even from a driver message that echoes it, and hides drizzle query text', () => {
    const url = 'postgres://u:topsecret@db:5432/x';
    expect(describeFailure(Object.assign(new Error('weird: topsecret leaked'), { code: 'XX000' }), url)).to.equal(
      'postgres postgres://u:***@db:5432/x: weird: *** leaked [XX000]',
    );
    const wrapped = Object.assign(new Error('Failed query: insert ...\nparams: a,b'), {
      cause: Object.assign(new Error('value too long'), { code: '22001' }),
    });
    expect(describeFailure(wrapped, url)).to.equal('postgres postgres://u:***@db:5432/x: value too long [22001]');
  });
});
