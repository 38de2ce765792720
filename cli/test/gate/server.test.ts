import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { silentLogger, type Assessment } from '@agentgov/core';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { requestDecision, type GateFailure } from '../../src/gate/client.js';
import type { GateEndpoint } from '../../src/gate/endpoint.js';
import type { GateInput } from '../../src/gate/input.js';
import { encodeFrame, FrameDecoder, MAX_FRAME_BYTES, type GateDecision } from '../../src/gate/protocol.js';
import { GateServer } from '../../src/gate/server.js';

const assessment = (score: number): Assessment => ({
  score,
  level: 'low',
  action: 'allow',
  reason_code: 'no_risk_detected',
  evidence: { rules: [] },
});
const input = (command: string): GateInput => ({
  framework: 'gate',
  tool_name: 'Bash',
  arguments: { command },
  session_id: 's1',
});

/** Decides by the command text, so each reply can be matched to its request. */
async function decideByCommand(request: GateInput): Promise<GateDecision> {
  const command = String(request.arguments['command']);
  await new Promise((r) => setTimeout(r, 5));
  return {
    event_id: `id-${command}`,
    verdict: { decision: command.startsWith('rm') ? 'deny' : 'allow', reason: `saw ${command}`, decided_by: 'test' },
    assessment: assessment(command.length),
  };
}

function rawExchange(socketPath: string, payload: Buffer): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    const decoder = new FrameDecoder();
    socket.on('connect', () => socket.write(payload));
    socket.on('data', (chunk: Buffer) => {
      const frame = decoder.push(chunk);
      if (frame?.kind === 'frame') resolve(frame.value);
    });
    socket.on('close', () => resolve('closed'));
    socket.on('error', reject);
  });
}

describe('gate/server + gate/client', () => {
  let dir: string;
  let server: GateServer;
  let endpoint: GateEndpoint;

  beforeEach(async () => {
    dir = join(makeTempDir('gs-'), 'home');
    mkdirSync(dir, { mode: 0o700 });
    const socket = join(dir, 'gate.sock');
    server = new GateServer({
      socketPath: socket,
      token: 't0k3n',
      decide: decideByCommand,
      logger: silentLogger,
      requestTimeoutMs: 300,
    });
    await server.listen();
    endpoint = {
      socket,
      token: 't0k3n',
      pid: process.pid,
      started_at: '',
      config_file: null,
      gate: { on_unavailable: 'ask', timeout_ms: 2000 },
    };
  });
  afterEach(async () => server.close());

  it('creates the socket private (0600)', () => {
    expect(statSync(endpoint.socket).mode & 0o777).to.equal(0o600);
  });

  it('answers 40 concurrent clients, each with its own decision', async () => {
    const commands = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? `rm -rf /tmp/x${i}` : `ls ${i}`));
    const results = await Promise.all(commands.map((c) => requestDecision(endpoint, input(c), 5000)));
    results.forEach((result, i) => {
      const decision = result as GateDecision;
      expect(decision.event_id).to.equal(`id-${commands[i]}`);
      expect(decision.verdict.decision).to.equal(i % 3 === 0 ? 'deny' : 'allow');
      expect(decision.assessment.score).to.equal(commands[i]!.length);
    });
    expect(server.stats.decided).to.equal(40);
  });

  it('refuses a wrong token without deciding', async () => {
    const result = (await requestDecision({ ...endpoint, token: 'other' }, input('ls'), 2000)) as GateFailure;
    expect(result.failure).to.equal('bad_token');
    expect(server.stats.decided).to.equal(0);
  });

  it('refuses an oversized frame from its header', async () => {
    const header = Buffer.alloc(4);
    header.writeUInt32BE(MAX_FRAME_BYTES + 10, 0);
    const reply = (await rawExchange(endpoint.socket, header)) as { ok: boolean; error: { code: string } };
    expect(reply.ok).to.equal(false);
    expect(reply.error.code).to.equal('frame_too_large');
  });

  it('refuses a request whose event is invalid', async () => {
    const reply = (await rawExchange(
      endpoint.socket,
      encodeFrame({ v: 1, token: 't0k3n', input: { framework: 'gate', tool_name: 'Bash' } }),
    )) as { error: { code: string; message: string } };
    expect(reply.error.code).to.equal('bad_request');
    expect(reply.error.message).to.match(/session_id/);
  });

  it('closes a connection that does not deliver a frame in time', async () => {
    const started = Date.now();
    expect(await rawExchange(endpoint.socket, Buffer.from([0, 0]))).to.equal('closed');
    expect(Date.now() - started).to.be.at.least(250);
  });

  it('refuses to start while another server answers on the socket', async () => {
    const second = new GateServer({
      socketPath: endpoint.socket,
      token: 'x',
      decide: decideByCommand,
      logger: silentLogger,
    });
    try {
      await second.listen();
      expect.fail('second listen succeeded');
    } catch (error) {
      expect((error as { code: string }).code).to.equal('E_GATE_IN_USE');
    }
  });

  it('replaces a stale socket file left by a crashed run', async () => {
    await server.close();
    // A crashed run: a process listening on the socket is killed with SIGKILL, the file stays.
    const child = spawn(process.execPath, [
      '-e',
      `require('net').createServer().listen(${JSON.stringify(endpoint.socket)}, () => console.log('up'))`,
    ]);
    await new Promise((r) => child.stdout.once('data', r));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(existsSync(endpoint.socket)).to.equal(true);
    server = new GateServer({
      socketPath: endpoint.socket,
      token: 't0k3n',
      decide: decideByCommand,
      logger: silentLogger,
    });
    await server.listen();
    expect(((await requestDecision(endpoint, input('ls'), 2000)) as GateDecision).verdict.decision).to.equal('allow');
  });

  it('removes its socket on close, after which the client reports a missing socket', async () => {
    await server.close();
    expect(existsSync(endpoint.socket)).to.equal(false);
    const result = (await requestDecision(endpoint, input('ls'), 2000)) as GateFailure;
    expect(result.failure).to.equal('socket_missing');
    expect(result.message).to.contain(endpoint.socket);
  });

  it('client: a socket file nobody listens on is a stale socket', async () => {
    const stalePath = join(dir, 'stale.sock');
    writeFileSync(stalePath, '');
    const result = (await requestDecision({ ...endpoint, socket: stalePath }, input('ls'), 2000)) as GateFailure;
    expect(result.failure).to.equal('socket_refused');
    expect(result.message).to.match(/stale socket/);
  });

  it('client: a peer that answers garbage is a broken reply; one that never answers is a timeout', async () => {
    const garbagePath = join(dir, 'garbage.sock');
    const garbage = createServer((s) => s.end(Buffer.from([0, 0, 0, 3, 0x7b, 0x7b, 0x7b])));
    await new Promise<void>((r) => garbage.listen(garbagePath, r));
    const silentPath = join(dir, 'silent.sock');
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(silentPath, r));
    try {
      expect(
        ((await requestDecision({ ...endpoint, socket: garbagePath }, input('ls'), 2000)) as GateFailure).failure,
      ).to.equal('broken_reply');
      const timeout = (await requestDecision({ ...endpoint, socket: silentPath }, input('ls'), 200)) as GateFailure;
      expect(timeout.failure).to.equal('timeout');
      expect(timeout.message).to.contain('200 ms');
    } finally {
      garbage.close();
      silent.close();
      silent.unref();
    }
  });
});
