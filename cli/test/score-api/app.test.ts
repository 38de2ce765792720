import { request as httpRequest } from 'node:http';
import { silentLogger, type Assessment, type ToolCallEvent } from '@agentgov/core';
import { expect } from 'chai';
import { createScoreApp, MAX_BODY_BYTES } from '../../src/score-api/app.js';
import { listenScoreApp, type RunningScoreServer } from '../../src/score-api/listen.js';
import { createRiskEngine } from '../../src/risk/engine.js';

/** A deterministic stand-in assessor for the transport tests (the real engine runs in score.test.ts). */
async function assess(event: ToolCallEvent): Promise<Assessment> {
  const command = String(event.arguments['command'] ?? '');
  if (command === 'explode') throw new Error('engine bug');
  const risky = command.includes('rm -rf');
  return {
    score: risky ? 90 : 0,
    level: risky ? 'critical' : 'low',
    action: risky ? 'deny' : 'allow',
    reason_code: risky ? 'recursive_delete' : 'no_risk_detected',
    evidence: { rules: [], commands: [command], canonical: event.canonical_tool },
  };
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  base: string,
  method: string,
  path: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const errorCode = (reply: Reply): string => (JSON.parse(reply.body) as { error: { code: string } }).error.code;

describe('score-api/app over real HTTP', () => {
  let running: RunningScoreServer;
  before(async () => {
    const app = createScoreApp({ assess, version: '9.9.9', rulesLoaded: () => 42, token: null, logger: silentLogger });
    running = await listenScoreApp(app, { host: '127.0.0.1', port: 0 }, null);
  });
  after(async () => running.close());

  it('POST /score answers the assessment in the Score response shape', async () => {
    const reply = await send(
      running.url,
      'POST',
      '/score',
      JSON.stringify({ tool_name: 'Bash', arguments: { command: 'rm -rf /' }, session_id: 's' }),
      { 'content-type': 'application/json' },
    );
    expect(reply.status).to.equal(200);
    expect(JSON.parse(reply.body)).to.deep.equal({
      risk_assessment: { score: 90, level: 'critical' },
      recommendation: { action: 'deny', reason_code: 'recursive_delete' },
      evidence: { rules: [], commands: ['rm -rf /'], canonical: 'shell' },
      stage: 'assessed',
    });
  });

  it('GET /health reports status, version, uptime and rules loaded', async () => {
    const reply = await send(running.url, 'GET', '/health');
    expect(reply.status).to.equal(200);
    const body = JSON.parse(reply.body) as Record<string, unknown>;
    expect(body).to.include({ status: 'ok', version: '9.9.9', rules_loaded: 42 });
    expect(body['uptime_s']).to.be.a('number');
  });

  const bad: [string, string, string | Buffer | undefined, number, string][] = [
    ['invalid JSON', '/score', '{"tool_name":', 400, 'invalid_json'],
    ['an empty body', '/score', '', 400, 'invalid_json'],
    ['a JSON array', '/score', '[1,2]', 400, 'invalid_body'],
    ['a JSON string', '/score', '"x"', 400, 'invalid_body'],
    ['a missing tool_name', '/score', '{"arguments":{},"session_id":"s"}', 400, 'missing_field'],
    ['a missing arguments', '/score', '{"tool_name":"Bash","session_id":"s"}', 400, 'missing_field'],
    ['a missing session_id', '/score', '{"tool_name":"Bash","arguments":{}}', 400, 'missing_field'],
    ['a numeric tool_name', '/score', '{"tool_name":1,"arguments":{},"session_id":"s"}', 400, 'invalid_field'],
    ['arguments as an array', '/score', '{"tool_name":"Bash","arguments":[],"session_id":"s"}', 400, 'invalid_field'],
    ['a null session_id', '/score', '{"tool_name":"Bash","arguments":{},"session_id":null}', 400, 'invalid_field'],
    ['a body over 1 MiB', '/score', Buffer.alloc(MAX_BODY_BYTES + 1, 0x20), 413, 'payload_too_large'],
    [
      'an assessment that throws',
      '/score',
      '{"tool_name":"Bash","arguments":{"command":"explode"},"session_id":"s"}',
      422,
      'assessment_failed',
    ],
  ];
  for (const [name, path, body, status, code] of bad) {
    it(`POST ${path} with ${name} answers ${status} ${code}`, async () => {
      const reply = await send(running.url, 'POST', path, body, { 'content-type': 'application/json' });
      expect(reply.status).to.equal(status);
      expect(errorCode(reply)).to.equal(code);
      expect((JSON.parse(reply.body) as { error: { message: string } }).error.message).to.be.a('string').and.not.empty;
    });
  }

  it('a chunked body over 1 MiB (no Content-Length) answers 413', async () => {
    const reply = await send(running.url, 'POST', '/score', Buffer.alloc(MAX_BODY_BYTES + 100, 0x20), {
      'transfer-encoding': 'chunked',
      'content-type': 'application/json',
    });
    expect(reply.status).to.equal(413);
  });

  const routing: [string, string, number, string][] = [
    ['GET', '/nope', 404, 'not_found'],
    ['POST', '/', 404, 'not_found'],
    ['GET', '/score', 405, 'method_not_allowed'],
    ['DELETE', '/score', 405, 'method_not_allowed'],
    ['POST', '/health', 405, 'method_not_allowed'],
    ['PROPFIND', '/score', 405, 'method_not_allowed'],
  ];
  for (const [method, path, status, code] of routing) {
    it(`${method} ${path} answers ${status} ${code}`, async () => {
      const reply = await send(running.url, method, path);
      expect(reply.status).to.equal(status);
      expect(errorCode(reply)).to.equal(code);
      if (status === 405) expect(reply.headers['allow']).to.be.a('string').and.not.empty;
    });
  }

  it('never answers a 5xx to 500 random bodies and headers', async function () {
    this.timeout(120_000);
    await fuzz(running.url, 20261122);
  });
});

describe('score-api/app with the real risk engine', () => {
  let running: RunningScoreServer;
  before(async () => {
    const engine = await createRiskEngine({});
    const app = createScoreApp({
      assess: async (event) => engine.assess(event),
      version: '1',
      rulesLoaded: () => engine.rulesLoaded,
      token: null,
      logger: silentLogger,
    });
    running = await listenScoreApp(app, { host: '127.0.0.1', port: 0 }, null);
  });
  after(async () => running.close());

  it('never answers a 5xx to 500 random bodies and headers, random shell text included', async function () {
    this.timeout(180_000);
    await fuzz(running.url, 7331);
  });
});

describe('score-api/app with score.token', () => {
  let running: RunningScoreServer;
  before(async () => {
    const app = createScoreApp({ assess, version: '1', rulesLoaded: () => 0, token: 's3cret', logger: silentLogger });
    running = await listenScoreApp(app, { host: '127.0.0.1', port: 0 }, 's3cret');
  });
  after(async () => running.close());

  const body = JSON.stringify({ tool_name: 'Bash', arguments: { command: 'ls' }, session_id: 's' });
  it('answers 401 without the bearer token, or with a wrong one', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: 's3cret' }] as Record<
      string,
      string
    >[]) {
      const reply = await send(running.url, 'POST', '/score', body, { ...headers, 'content-type': 'application/json' });
      expect(reply.status).to.equal(401);
      expect(errorCode(reply)).to.equal('unauthorized');
      expect(reply.headers['www-authenticate']).to.equal('Bearer');
    }
  });

  it('answers with the bearer token', async () => {
    expect(
      (
        await send(running.url, 'POST', '/score', body, {
          authorization: 'Bearer s3cret',
          'content-type': 'application/json',
        })
      ).status,
    ).to.equal(200);
    expect((await send(running.url, 'GET', '/health', undefined, { authorization: 'Bearer s3cret' })).status).to.equal(
      200,
    );
  });
});

/** 500 seeded random requests (methods, paths, headers, bodies); fails on any 5xx. */
async function fuzz(url: string, initialSeed: number): Promise<void> {
  let seed = initialSeed;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND', 'TRACE'];
  const paths = [
    '/score',
    '/health',
    '/',
    '/score/',
    '/score?x=1',
    '/%zz',
    '/score%00',
    '/health/../score',
    `/${'a'.repeat(2000)}`,
  ];
  const types = [
    'application/json',
    'text/plain',
    'application/json; charset=latin1',
    'multipart/form-data; boundary=x',
    'application/x-www-form-urlencoded',
    'garbage',
    '',
  ];
  const fields = [
    () => 'Bash',
    () => 1,
    () => null,
    () => [],
    () => ({}),
    () => ({ command: 'rm -rf /' }),
    () => 'x'.repeat(Math.floor(random() * 5000)),
    () => true,
  ];
  const metas = [
    '|',
    '&&',
    ';',
    '$(',
    '`',
    '>',
    '<<EOF\n',
    '"',
    "'",
    '\\',
    'sudo ',
    'rm -rf ',
    'bash -c ',
    '\u0000',
    '\n',
    '{',
    '}',
    '*',
    '~/',
    '../',
  ];
  const shellNoise = () => ({
    command: Array.from(
      { length: Math.floor(random() * 40) },
      () => pick(metas) + String.fromCharCode(97 + Math.floor(random() * 26)),
    ).join(''),
  });
  fields.push(shellNoise, shellNoise, shellNoise);
  const bodies = [
    () => Buffer.from(Array.from({ length: Math.floor(random() * 300) }, () => Math.floor(random() * 256))),
    () => JSON.stringify({ tool_name: pick(fields)(), arguments: pick(fields)(), session_id: pick(fields)() }),
    () => JSON.stringify(pick(fields)()),
    () => '{"tool_name":"Bash","arguments":{"command":"ls"},"session_id":"s"}'.slice(0, Math.floor(random() * 60)),
    () => '',
    () => '{'.repeat(Math.floor(random() * 5000)),
  ];
  const statuses = new Map<number, number>();
  for (let i = 0; i < 500; i++) {
    const headers: Record<string, string> = {};
    const type = pick(types);
    if (type) headers['content-type'] = type;
    if (random() < 0.2) headers['authorization'] = pick(['Bearer x', 'Basic abc', '', 'Bearer']);
    if (random() < 0.2) headers['content-encoding'] = pick(['gzip', 'identity', 'br', 'weird']);
    if (random() < 0.1) headers['accept'] = pick(['*/*', 'text/html', '']);
    const method = pick(methods);
    const reply = await send(
      url,
      method,
      pick(paths),
      method === 'GET' || method === 'HEAD' ? undefined : pick(bodies)(),
      headers,
    );
    statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
    expect(reply.status, `request ${i}: ${method}`).to.be.below(500);
  }
  expect(statuses.get(200)).to.be.above(0);
  expect([...statuses.keys()].some((s) => s >= 400)).to.equal(true);
}
