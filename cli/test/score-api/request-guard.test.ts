import { request as httpRequest } from 'node:http';
import { homedir } from 'node:os';
import { silentLogger, type Assessment, type ToolCallEvent } from '@agentgov/core';
import { expect } from 'chai';
import { toolCallEvent } from '../../src/gate/tool-event.js';
import { createRiskEngine, type RiskEngine } from '../../src/risk/engine.js';
import { createScoreApp } from '../../src/score-api/app.js';
import { listenScoreApp, type RunningScoreServer } from '../../src/score-api/listen.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: Record<string, unknown>;
}

/** A real HTTP request with full control of the headers (fetch forbids setting Host). */
function post(
  base: string,
  body: string,
  headers: Record<string, string> = {},
  path = '/score',
  method = 'POST',
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(text) as Record<string, unknown>;
        } catch {
          // not JSON: asserted by the caller through `body`
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const JSON_TYPE = { 'content-type': 'application/json' };
const score = (command: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ tool_name: 'Bash', arguments: { command }, session_id: 's', ...extra });
const code = (reply: Reply) => (reply.json['error'] as { code?: string } | undefined)?.code;

describe('score-api request guards (real koa server, real HTTP, real risk engine)', () => {
  let engine: RiskEngine;
  let open: RunningScoreServer;
  let tokened: RunningScoreServer;
  let calls: ToolCallEvent[];
  before(async () => {
    engine = await createRiskEngine({});
    calls = [];
    const assess = async (event: ToolCallEvent): Promise<Assessment> => {
      calls.push(event);
      return engine.assess(event);
    };
    open = await listenScoreApp(
      createScoreApp({
        assess,
        version: '1',
        rulesLoaded: () => engine.rulesLoaded,
        token: null,
        logger: silentLogger,
      }),
      { host: '127.0.0.1', port: 0 },
      null,
    );
    tokened = await listenScoreApp(
      createScoreApp({
        assess,
        version: '1',
        rulesLoaded: () => engine.rulesLoaded,
        token: 'tok-3n.9_~+/=',
        logger: silentLogger,
      }),
      { host: '127.0.0.1', port: 0 },
      'tok-3n.9_~+/=',
    );
  });
  after(async () => {
    await open?.close();
    await tokened?.close();
  });

  describe('Content-Type', () => {
    for (const type of [
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
    ]) {
      it(`POST /score with ${type ?? 'no Content-Type'} answers 415 and assesses nothing`, async () => {
        const before = calls.length;
        const reply = await post(open.url, score('rm -rf ~'), type ? { 'content-type': type } : {});
        expect(reply.status).to.equal(415);
        expect(code(reply)).to.equal('unsupported_media_type');
        expect(calls.length).to.equal(before);
      });
    }
    it('accepts application/json with a charset, in any case', async () => {
      expect(
        (await post(open.url, score('ls'), { 'content-type': 'Application/JSON; charset=utf-8' })).status,
      ).to.equal(200);
    });
  });

  describe('Host and Origin without a token (DNS rebinding, web pages)', () => {
    const refused: [string, Record<string, string>, string][] = [
      ['a rebound Host name', { host: 'attacker.example:7331' }, 'forbidden_host'],
      ['a LAN address as Host', { host: '192.168.1.20:7331' }, 'forbidden_host'],
      ['a web page Origin', { origin: 'https://attacker.example' }, 'forbidden_origin'],
      ['a null Origin (sandboxed frame, file://)', { origin: 'null' }, 'forbidden_origin'],
      ['a look-alike Origin', { origin: 'http://localhost.attacker.example' }, 'forbidden_origin'],
    ];
    for (const [what, headers, why] of refused) {
      it(`refuses ${what} with 403 ${why}, POST and GET alike`, async () => {
        const reply = await post(open.url, score('rm -rf ~'), { ...JSON_TYPE, ...headers });
        expect(reply.status).to.equal(403);
        expect(code(reply)).to.equal(why);
        expect((await post(open.url, '', headers, '/health', 'GET')).status).to.equal(403);
      });
    }
    for (const [host, origin] of [
      ['localhost:7331', 'http://localhost:3000'],
      ['127.0.0.1', 'http://127.0.0.1:8080'],
      ['[::1]:7331', 'http://[::1]:9000'],
    ]) {
      it(`accepts Host ${host} with Origin ${origin}`, async () => {
        expect((await post(open.url, score('ls'), { ...JSON_TYPE, host: host!, origin: origin! })).status).to.equal(
          200,
        );
      });
    }
    it('with a token, the token decides, not the Host', async () => {
      expect(
        (
          await post(tokened.url, score('ls'), {
            ...JSON_TYPE,
            host: 'agentgov.internal:7331',
            authorization: 'Bearer tok-3n.9_~+/=',
          })
        ).status,
      ).to.equal(200);
    });
  });

  describe('Bearer token (RFC 6750)', () => {
    const good = ['Bearer tok-3n.9_~+/=', 'bearer tok-3n.9_~+/=', 'BEARER tok-3n.9_~+/='];
    const bad = [
      'Bearer tok-3n.9_~+/',
      'Bearer tok-3n.9_~+/==',
      'Bearer  tok-3n.9_~+/=',
      'Bearer tok-3n.9_~+/= extra',
      'Bearer tok-3n.9_~+/=,x',
      'Basic tok-3n.9_~+/=',
      'tok-3n.9_~+/=',
      'Bearer',
      'Bearer TOK-3N.9_~+/=',
    ];
    for (const header of good) {
      it(`accepts '${header}'`, async () => {
        expect((await post(tokened.url, score('ls'), { ...JSON_TYPE, authorization: header })).status).to.equal(200);
      });
    }
    for (const header of bad) {
      it(`refuses '${header}' with 401`, async () => {
        const reply = await post(tokened.url, score('ls'), { ...JSON_TYPE, authorization: header });
        expect(reply.status).to.equal(401);
        expect(reply.headers['www-authenticate']).to.equal('Bearer');
      });
    }
  });

  describe('cwd in the request', () => {
    it('is used exactly like the hook cwd: the same event cwd and the same assessment as the gate builds', async () => {
      const cwd = '/srv/team/proj';
      const reply = await post(open.url, score('rm -rf ../shared', { cwd }), JSON_TYPE);
      expect(reply.status).to.equal(200);
      expect(calls.at(-1)?.cwd).to.equal(cwd);
      const gateEvent = toolCallEvent(
        {
          framework: 'agentx-code',
          tool_name: 'Bash',
          arguments: { command: 'rm -rf ../shared' },
          session_id: 's',
          cwd,
        },
        { framework: 'agentx-code', defaultCwd: '/elsewhere' },
      );
      const viaGate = engine.assess(gateEvent);
      expect(reply.json['recommendation']).to.deep.equal({ action: viaGate.action, reason_code: viaGate.reason_code });
      expect(JSON.stringify(reply.json['evidence'])).to.contain('/srv/team/shared');
    });

    it('without cwd, the server judges against its own directory (and does not show it)', async () => {
      const reply = await post(open.url, score('rm -rf ../shared'), JSON_TYPE);
      expect(reply.status).to.equal(200);
      expect(calls.at(-1)?.cwd).to.equal(process.cwd());
      expect(reply.body).to.not.contain(process.cwd());
    });

    for (const [what, cwd] of [
      ['a number', 7],
      ['null', null],
      ['an array', ['/a']],
      ['a relative path', 'work/proj'],
      ['an empty string', ''],
    ] as const) {
      it(`answers 400 invalid_field for cwd as ${what}`, async () => {
        const reply = await post(open.url, score('ls', { cwd }), JSON_TYPE);
        expect(reply.status).to.equal(400);
        expect(code(reply)).to.equal('invalid_field');
        expect(JSON.stringify(reply.json)).to.contain("'cwd'");
      });
    }
  });

  describe('no local paths in answers', () => {
    const home = homedir();
    const cwd = process.cwd();
    for (const command of ['rm -rf ~', 'cat ~/.ssh/id_rsa', 'rm -rf ./build ../x', `cat ${home}/.aws/credentials`]) {
      it(`${command}: the evidence shows neither the server's home nor its cwd`, async () => {
        const reply = await post(open.url, score(command), JSON_TYPE);
        expect(reply.status).to.equal(200);
        expect(reply.body).to.not.contain(`${home}/`).and.not.contain(`"${home}"`);
        expect(reply.body).to.not.contain(cwd);
      });
    }
    it('errors show no local path either', async () => {
      for (const reply of [
        await post(open.url, '{', JSON_TYPE),
        await post(open.url, score('ls'), { 'content-type': 'text/plain' }),
        await post(open.url, '', {}, '/nope', 'GET'),
      ]) {
        expect(reply.status).to.be.within(400, 499);
        expect(reply.body).to.not.contain(cwd).and.not.contain(`${home}/`);
      }
    });
  });
});
