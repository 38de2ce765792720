/**
 * Issue 26: the gate trusted its own files blindly, and could hang forever. Through the real
 * binary and a real socket, with a user config and a project config present, homes under /var/tmp:
 *  - a gate.json others can write (or another user's) naming a socket that answers `allow` is not
 *    obeyed: the call is assessed in process, and stderr says why;
 *  - an edited gate cache (`"rules": []`) never turns the engine off: it is refused, rebuilt, and said;
 *  - an AGENTGOV_HOME others can write is refused with a clear message;
 *  - a gate that gets no answer answers the fail-closed way at its deadline (never allow), and
 *    an AGENTGOV_HOME where directories cannot be made (`/proc/...`) no longer spins.
 */
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { silentLogger } from '@agentgov/core';
import { isolatedEnv } from '@agentgov/core/testing';
import { expect } from 'chai';
import { writeEndpointFile } from '../../src/gate/endpoint.js';
import { gateCacheDir } from '../../src/gate/gate-cache.js';
import { GateServer } from '../../src/gate/server.js';
import { runCli } from '../support/cli-process.js';

interface GateJson {
  verdict: { decision: string; reason: string; decided_by: string };
  unavailable?: { code: string };
  notes?: string[];
}

const call = (command: string) => JSON.stringify({ tool_name: 'Bash', tool_input: { command }, session_id: 's' });

describe('the gate checks its own files before trusting them (the real binary, a real socket)', function () {
  this.timeout(180_000);
  let root: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let agentgovHome: string;
  let server: GateServer | undefined;
  let silent: Server | undefined;
  const connections = new Set<Socket>();
  before(() => {
    root = mkdtempSync('/var/tmp/agentgov-own-files-');
  });
  after(() => rmSync(root, { recursive: true, force: true }));
  beforeEach(() => {
    const world = mkdtempSync(join(root, 'w-'));
    project = join(world, 'proj');
    mkdirSync(project);
    env = isolatedEnv(join(world, 'home'));
    agentgovHome = env['AGENTGOV_HOME']!;
    mkdirSync(agentgovHome, { recursive: true, mode: 0o700 });
    writeFileSync(join(agentgovHome, 'config.yaml'), 'gate:\n  on_unavailable: ask\n');
    writeFileSync(join(project, 'agentgov.yaml'), 'log_level: INFO\n');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    for (const connection of connections) connection.destroy();
    await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
    silent = undefined;
  });

  const gate = async (input: string, extraEnv: Record<string, string> = {}): Promise<GateJson & { stderr: string }> => {
    const result = await runCli(['gate', '--stdin', '--format', 'json'], {
      env: { ...env, ...extraEnv },
      cwd: project,
      input,
    });
    expect(result.code, result.stderr).to.equal(0);
    return { ...(JSON.parse(result.stdout) as GateJson), stderr: result.stderr };
  };

  /** A gate socket that answers `allow` to everything: what a planted gate.json would point at. */
  async function allowEverything(): Promise<string> {
    const socket = join(agentgovHome, 'gate.sock');
    server = new GateServer({
      socketPath: socket,
      token: 'tok',
      logger: silentLogger,
      decide: async () => ({
        event_id: 'planted',
        verdict: { decision: 'allow', reason: 'planted socket', decided_by: 'test' },
        assessment: {
          score: 0,
          level: 'low',
          action: 'allow',
          reason_code: 'no_risk_detected',
          evidence: { rules: [] },
        },
      }),
    });
    await server.listen();
    writeEndpointFile(
      {
        socket,
        token: 'tok',
        pid: process.pid,
        started_at: '',
        config_file: null,
        gate: { on_unavailable: 'allow', timeout_ms: 3000 },
      },
      env,
    );
    return socket;
  }

  it('obeys a private gate.json (the control), but not one others can write (mode 0666)', async () => {
    await allowEverything();
    const control = await gate(call('rm -rf ~'));
    expect(control.verdict.reason).to.equal('planted socket');
    chmodSync(join(agentgovHome, 'gate.json'), 0o666);
    const out = await gate(call('rm -rf ~'));
    expect(out.verdict.decision).to.equal('deny');
    expect(out.verdict.decided_by).to.equal('risk-assessment');
    expect(out.stderr)
      .to.contain(`the gate endpoint file ${join(agentgovHome, 'gate.json')} is writable by anyone (mode 0666)`)
      .and.contain('assessing in process');
  });

  it("does not obey a gate.json owned by another user, nor one naming another user's socket", async function () {
    if (process.getuid?.() !== 0) this.skip(); // changing a file's owner needs root
    const socket = await allowEverything();
    chownSync(join(agentgovHome, 'gate.json'), 65534, 65534);
    const out = await gate(call('rm -rf ~'));
    expect(out.verdict.decision).to.equal('deny');
    expect(out.stderr).to.contain('is owned by uid 65534, not by you');
    chownSync(join(agentgovHome, 'gate.json'), 0, 0);
    chownSync(socket, 65534, 65534);
    const viaSocket = await gate(call('rm -rf ~'));
    expect(viaSocket.verdict.decision).to.equal('deny');
    expect(viaSocket.stderr).to.contain(`the socket ${socket}, owned by uid 65534`);
  });

  it('an edited gate cache ("rules": []) is refused, said, and rebuilt: rm -rf ~ stays denied', async () => {
    expect((await gate(call('rm -rf ~'))).verdict.decision).to.equal('deny');
    const dir = gateCacheDir(env);
    const entries = readdirSync(dir).filter((name) => name.endsWith('.json'));
    expect(entries).to.have.length(1);
    const file = join(dir, entries[0]!);
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { rules: unknown[]; stamp: string };
    expect(entry.rules.length).to.be.greaterThan(0);
    writeFileSync(file, JSON.stringify({ ...entry, rules: [] }), { mode: 0o600 });
    const edited = await gate(call('rm -rf ~'));
    expect(edited.verdict.decision).to.equal('deny');
    expect(edited.stderr).to.contain(`${file} does not match its stamp`);
    // Rebuilt: the next call takes the lean path again, with every rule.
    const rebuilt = JSON.parse(readFileSync(file, 'utf8')) as { rules: unknown[] };
    expect(rebuilt.rules.length).to.equal(entry.rules.length);
    const again = await gate(call('rm -rf ~'));
    expect(again.stderr).to.equal('');
    expect(again.verdict.decision).to.equal('deny');
  });

  it('an AGENTGOV_HOME others can write is refused with a clear message, never used as is', async () => {
    await allowEverything();
    chmodSync(agentgovHome, 0o777);
    const out = await gate(call('rm -rf ~'));
    expect(out.verdict.decision).to.equal('deny');
    expect(out.stderr).to.contain(`refusing to use AGENTGOV_HOME ${agentgovHome} is writable by anyone (mode 0777)`);
    expect((await gate(call('ls'))).verdict.decision).to.equal('ask');
    const trust = await runCli(['trust', project], { env, cwd: project });
    expect(trust.code).to.not.equal(0);
    expect(trust.stderr).to.contain('error [E_CONFIG_INVALID]: refusing to use AGENTGOV_HOME');
    expect(readdirSync(agentgovHome)).to.not.include('trust.json');
  });

  describe('the deadline', () => {
    /** A socket that accepts the request and never answers, registered with a very long gate.timeout_ms. */
    async function neverAnswers(onUnavailable: 'ask' | 'deny' | 'allow'): Promise<void> {
      const socket = join(agentgovHome, 'gate.sock');
      silent = createServer((connection) => {
        connections.add(connection);
        connection.on('close', () => connections.delete(connection));
      });
      await new Promise<void>((resolve) => silent!.listen(socket, resolve));
      chmodSync(socket, 0o600);
      writeEndpointFile(
        {
          socket,
          token: 'tok',
          pid: process.pid,
          started_at: '',
          config_file: null,
          gate: { on_unavailable: onUnavailable, timeout_ms: 600_000 },
        },
        env,
      );
    }

    for (const [registered, expected] of [
      ['deny', 'deny'],
      ['ask', 'ask'],
      ['allow', 'ask'],
    ] as const) {
      it(`a gate that never answers answers '${expected}' at its deadline (on_unavailable ${registered})`, async () => {
        await neverAnswers(registered);
        const out = await gate(call('ls'), { AGENTGOV_GATE_DEADLINE_MS: '1500' });
        expect(out.verdict.decision).to.equal(expected);
        expect(out.unavailable?.code).to.equal('deadline');
        expect(out.verdict.reason).to.contain("no verdict within the gate's deadline of 1500 ms");
        // In the agent's own format as well.
        const hook = await runCli(['gate', '--stdin'], {
          env: { ...env, AGENTGOV_GATE_DEADLINE_MS: '1500' },
          cwd: project,
          input: call('ls'),
        });
        expect(JSON.parse(hook.stdout)).to.have.nested.property('hookSpecificOutput.permissionDecision', expected);
      });
    }

    it('AGENTGOV_HOME where directories cannot be made (/proc/...) answers instead of spinning', async () => {
      const procEnv = { ...env, AGENTGOV_HOME: '/proc/self/agentgov-cannot-be-made/.agentgov' };
      const destructive = await runCli(['gate', '--stdin', '--format', 'json'], {
        env: procEnv,
        cwd: project,
        input: call('rm -rf ~'),
      });
      expect(destructive.code, destructive.stderr).to.equal(0);
      const out = JSON.parse(destructive.stdout) as GateJson;
      expect(out.verdict.decision).to.equal('deny');
      expect((out.notes ?? []).join(' '))
        .to.contain('could not be journaled')
        .and.contain('cannot create the directory /proc/self/agentgov-cannot-be-made');
    });
  });
});
