import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPostgresSink } from '@agentgov/plugin-sink-postgres';
import { startPostgres, type PostgresCluster } from '@agentgov/plugin-sink-postgres/testing';
import { expect } from 'chai';
import { runCli } from '../support/cli-process.js';
import { snapshotTree } from '../support/daemon.js';
import {
  expectedCounts,
  makeDashboardHome,
  recordedOutbox,
  startDashboard,
  type DashboardHome,
  type RunningDashboard,
} from './fixture.js';

const get = async (url: string, init: RequestInit = {}) => {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return {
    status: response.status,
    body: body as Record<string, unknown> & { error?: { code: string; message: string } },
    headers: response.headers,
  };
};

/** Seeded, so a failure names a value that fails again. */
function fuzzValues(seed: number, count: number): string[] {
  let a = seed;
  const next = () => (a = (a * 1103515245 + 12345) >>> 0) / 4294967296;
  const pieces = [
    "' OR 1=1 --",
    '"; DROP TABLE events; --',
    '%',
    '_',
    '\\',
    '-1',
    '0',
    '1e309',
    '99999999999999999999',
    '2026-02-30',
    '2026-13-01',
    'NaN',
    'null',
    '[]',
    '{"a":1}',
    '../../etc/passwd',
    '\u0000',
    '\u202e',
    '😀',
    'x'.repeat(5000),
    'critical,high,low,medium,critical',
    ',,,',
    'allow;deny',
  ];
  return Array.from({ length: count }, () => {
    const n = 1 + Math.floor(next() * 3);
    return Array.from({ length: n }, () => pieces[Math.floor(next() * pieces.length)]).join('');
  });
}

const PARAMETERS = ['since', 'until', 'agent', 'project', 'level', 'action', 'reason', 'q', 'page', 'page_size'];

describe('agentgov dashboard: the JSON API (real binary, generated system.db)', function () {
  this.timeout(180_000);
  let home: DashboardHome;
  let dashboard: RunningDashboard;
  let untouched: Record<string, string>;

  before(async () => {
    home = makeDashboardHome(3000);
    untouched = snapshotTree(join(home.root, '.agentgov'));
    dashboard = await startDashboard(['--db', home.db], home.env);
  });
  after(async () => {
    await dashboard?.daemon.stop();
  });

  it('gives the same totals as plain SQL over the period, and per day and agent they add up', async () => {
    const { status, body } = await get(`${dashboard.url}/api/overview?since=2026-11-19&until=2026-11-25`);
    expect(status).to.equal(200);
    const expected = expectedCounts(home.db, '2026-11-19T00:00:00.000Z', '2026-11-26T00:00:00.000Z');
    expect(expected['calls']).to.be.greaterThan(100);
    expect(body['totals']).to.deep.equal(expected);
    const perDay = body['per_day'] as { calls: number; day: string }[];
    expect(perDay.map((d) => d.day)).to.deep.equal(perDay.map((d) => d.day).sort());
    expect(perDay.reduce((n, d) => n + d.calls, 0)).to.equal(expected['calls']);
    expect((body['by_agent'] as { calls: number }[]).reduce((n, d) => n + d.calls, 0)).to.equal(expected['calls']);
    const codex = await get(`${dashboard.url}/api/overview?since=2026-11-19&until=2026-11-25&agent=codex`);
    expect(codex.body['totals']).to.deep.equal(
      expectedCounts(home.db, '2026-11-19T00:00:00.000Z', '2026-11-26T00:00:00.000Z', 'codex'),
    );
    expect((body['top_rules'] as { rule_id: string }[]).map((r) => r.rule_id)).to.include('filesystem.rm_home');
  });

  it('narrows the sessions list by every filter, pages it, and opens a session and a call', async () => {
    const all = await get(`${dashboard.url}/api/sessions?page_size=200`);
    const codex = await get(`${dashboard.url}/api/sessions?agent=codex&page_size=200`);
    const denied = await get(`${dashboard.url}/api/sessions?agent=codex&action=deny&page_size=200`);
    const text = await get(`${dashboard.url}/api/sessions?q=${encodeURIComponent('169.254.169.254')}&page_size=200`);
    expect(codex.body['total'])
      .to.be.lessThan(all.body['total'] as number)
      .and.greaterThan(0);
    expect(denied.body['total'])
      .to.be.lessThan(codex.body['total'] as number)
      .and.greaterThan(0);
    expect((codex.body['rows'] as { framework: string }[]).every((r) => r.framework === 'codex')).to.equal(true);
    const withMetadata = new Set(
      home.calls.filter((c) => c.event.arguments['url']?.toString().includes('169.254')).map((c) => c.event.session_id),
    );
    expect(text.body['total']).to.equal(withMetadata.size);
    const page2 = await get(`${dashboard.url}/api/sessions?page=2&page_size=5`);
    const page1 = await get(`${dashboard.url}/api/sessions?page=1&page_size=5`);
    expect(page2.body['rows']).to.have.length(5);
    expect(page2.body['rows']).to.not.deep.equal(page1.body['rows']);

    const denial = home.calls.find((c) => c.verdict?.decision === 'deny')!;
    const session = await get(`${dashboard.url}/api/sessions/${denial.event.framework}/${denial.event.session_id}`);
    expect(session.status).to.equal(200);
    const calls = session.body['calls'] as { id: string; timestamp: string }[];
    expect(calls.map((c) => c.id)).to.include(denial.event.id);
    expect(calls.map((c) => c.timestamp)).to.deep.equal(calls.map((c) => c.timestamp).sort());
    const call = await get(`${dashboard.url}/api/calls/${encodeURIComponent(denial.event.id)}`);
    expect(call.body).to.include({ id: denial.event.id, action: denial.assessment.action, verdict: 'deny' });
    const gate = (
      call.body['assessments'] as { kind: string; decided_by: string; evidence: { rules: { rule_id: string }[] } }[]
    )[0]!;
    expect(gate.kind).to.equal('gate');
    expect(gate.decided_by).to.equal('agentgov-risk-engine');
    expect(gate.evidence.rules.map((r) => r.rule_id)).to.deep.equal(
      denial.assessment.evidence.rules.map((r) => r.rule_id),
    );
    expect((await get(`${dashboard.url}/api/calls/nope`)).status).to.equal(404);
  });

  it('answers a 400 naming the parameter for each malformed value, never a 500, and refuses every method but GET', async () => {
    const cases: [string, RegExp][] = [
      ['since=yesterday', /^since: /],
      ['until=2026-02-30', /^until: .*not a real date/],
      ['since=2026-11-20&until=2026-11-19', /^until: must be later/],
      ['level=severe', /^level: 'severe' is not one of low, medium, high, critical/],
      ['action=block', /^action: /],
      ['agent=%3Cscript%3E', /^agent: /],
      ['reason=DROP%20TABLE', /^reason: /],
      ['page=0', /^page: must be from 1/],
      ['page_size=100000', /^page_size: must be from 1 to 200/],
      ['page=1&page=2', /^page: given more than once/],
      [`q=${'x'.repeat(201)}`, /^q: longer than 200/],
      ['q=a%00b', /^q: contains control characters/],
      ['levels=high', /^levels: unknown parameter/],
    ];
    for (const [query, message] of cases) {
      const { status, body } = await get(`${dashboard.url}/api/sessions?${query}`);
      expect(status, query).to.equal(400);
      expect(body.error?.code, query).to.equal('bad_parameter');
      expect(body.error?.message, query).to.match(message);
    }
    let answered = 0;
    for (const path of ['/api/overview', '/api/sessions']) {
      for (const [i, value] of fuzzValues(7, 60).entries()) {
        const name = PARAMETERS[i % PARAMETERS.length]!;
        const { status, body } = await get(`${dashboard.url}${path}?${name}=${encodeURIComponent(value)}`);
        expect([200, 400], `${path} ${name}=${JSON.stringify(value)}`).to.include(status);
        if (status === 400) expect(body.error?.code).to.be.a('string');
        answered += 1;
      }
    }
    expect(answered).to.equal(120);
    for (const path of ['/api/sessions/x/%E0%A4%A', '/api/calls/%FF'])
      expect((await get(`${dashboard.url}${path}`)).status, path).to.equal(400);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      for (const path of ['/', '/api/overview', '/api/sessions', '/api/calls/x', '/assets/app.js']) {
        const { status, headers } = await get(`${dashboard.url}${path}`, {
          method,
          body: method === 'OPTIONS' ? undefined : '{}',
        });
        expect(status, `${method} ${path}`).to.equal(405);
        expect(headers.get('allow')).to.equal('GET, HEAD');
      }
    }
  });

  it('serves the page on every route, offline, under a strict content security policy', async () => {
    for (const path of ['/', '/sessions', '/sessions/codex/s000001', '/calls/abc']) {
      const response = await fetch(`${dashboard.url}${path}`);
      expect(response.status, path).to.equal(200);
      expect(response.headers.get('content-security-policy'))
        .to.contain("default-src 'none'")
        .and.contain("script-src 'self'");
      const html = await response.text();
      expect(html)
        .to.contain('<script src="/assets/app.js"></script>')
        .and.not.match(/https?:\/\//);
    }
    const script = await fetch(`${dashboard.url}/assets/app.js`);
    expect(script.headers.get('content-type')).to.contain('javascript');
    expect(await script.text()).to.not.match(/cdn\.jsdelivr|unpkg\.com|cdnjs|googleapis/);
  });

  it('has written nothing: system.db and everything beside it are the same byte for byte', async () => {
    // A reader of a WAL database maps SQLite's shared-memory index (-shm) and may open an empty -wal:
    // neither holds data, and a write would have put pages in the -wal.
    const after = snapshotTree(join(home.root, '.agentgov'));
    const wal = Object.keys(after).find((path) => path.endsWith('system.db-wal'));
    if (wal) expect(after[wal]).to.equal('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'); // empty
    const data = (tree: Record<string, string>) =>
      Object.fromEntries(Object.entries(tree).filter(([path]) => !/system\.db-(shm|wal)$/.test(path)));
    expect(data(after)).to.deep.equal(data(untouched));
    expect(Object.keys(data(after)).some((path) => path.endsWith('system.db'))).to.equal(true);
  });

  it('refuses a non-loopback address without dashboard.token, and with one needs it', async () => {
    const open = await runCli(['dashboard', '--db', home.db, '--listen', '0.0.0.0:0'], { env: home.env });
    expect(open.code).to.equal(3);
    expect(open.stderr).to.contain('E_SCORE_TOKEN_REQUIRED').and.contain('dashboard.token');
    writeFileSync(join(home.root, '.agentgov', 'config.yaml'), "dashboard:\n  token: 's3cret-token'\n", {
      mode: 0o600,
    });
    const guarded = await startDashboard(['--db', home.db], home.env);
    try {
      expect((await get(`${guarded.url}/api/facets`)).status).to.equal(401);
      expect(
        (await get(`${guarded.url}/api/facets`, { headers: { Authorization: 'Bearer s3cret-token' } })).status,
      ).to.equal(200);
      expect((await get(`${guarded.url}/login?token=wrong`)).status).to.equal(401);
      const login = await fetch(`${guarded.url}/login?token=s3cret-token`, { redirect: 'manual' });
      expect(login.status).to.equal(302);
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      expect(login.headers.get('set-cookie'))
        .to.match(/httponly/i)
        .and.match(/samesite=strict/i);
      expect((await get(`${guarded.url}/api/facets`, { headers: { Cookie: cookie } })).status).to.equal(200);
    } finally {
      await guarded.daemon.stop();
    }
  });
});

describe('agentgov dashboard over a real PostgreSQL team store', function () {
  this.timeout(240_000);
  let cluster: PostgresCluster;
  let home: DashboardHome;

  before(async () => {
    cluster = await startPostgres();
  });
  after(() => cluster?.destroy());

  it('answers exactly what it answers over system.db for the same calls, through read-only sessions', async () => {
    const url = await cluster.createDatabase('dashboard');
    home = makeDashboardHome(
      1500,
      `plugins:\n  - plugin: '@agentgov/plugin-sink-postgres'\n    options:\n      url: '${url}'\n`,
    );
    const sink = createPostgresSink({ url }, home.root);
    const records = recordedOutbox(home.db);
    for (let i = 0; i < records.length; i += 500) await sink.writeBatch(records.slice(i, i + 500));
    await sink.close();

    const fromSqlite = await startDashboard(['--db', home.db], home.env);
    const fromPostgres = await startDashboard(['--store', 'postgres'], home.env);
    try {
      expect(fromPostgres.daemon.stderr()).to.match(/dashboard of postgres postgres:\/\/agentgov:\*\*\*@127\.0\.0\.1/);
      for (const path of [
        '/api/overview?since=2026-11-01&until=2026-11-25',
        '/api/overview?agent=codex,cursor&level=high,critical',
        '/api/sessions?action=deny,ask&page_size=20',
        '/api/sessions?q=aws&page=2&page_size=3',
        `/api/sessions/codex/${home.calls.find((c) => c.event.framework === 'codex')!.event.session_id}`,
      ]) {
        const a = await get(`${fromSqlite.url}${path}`);
        const b = await get(`${fromPostgres.url}${path}`);
        expect(a.status, path).to.equal(200);
        expect(b.body, path).to.deep.equal(a.body);
      }
      const id = home.calls.find((c) => c.verdict)!.event.id;
      const call = await get(`${fromPostgres.url}/api/calls/${encodeURIComponent(id)}`);
      expect(call.body['assessments']).to.have.length(1);
      expect(call.body).to.include({ id, verdict: home.calls.find((c) => c.event.id === id)!.verdict!.decision });
      const events = await cluster.query<{ n: string }>('dashboard', 'SELECT count(*) AS n FROM agentgov.events');
      expect(Number(events[0]!.n)).to.equal(new Set(records.map((r) => r.event.id)).size);
    } finally {
      await fromSqlite.daemon.stop();
      await fromPostgres.daemon.stop();
    }
  });
});
