/**
 * Issue 26's fail-open paths in what the gate reads: MCP arguments (lists in lists), an unreadable
 * policy with `on_unavailable: allow`, and the URLs of Gemini CLI's web_fetch prompt. Each was
 * allowed; each goes through the real binary (`gate --stdin`) with both a user config and a
 * project config present, homes under /var/tmp.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv } from '@agentgov/core/testing';
import { expect } from 'chai';
import { silentLogger } from '@agentgov/core';
import { writeEndpointFile } from '../../src/gate/endpoint.js';
import { GateServer } from '../../src/gate/server.js';
import { runCli } from '../support/cli-process.js';

interface GateJson {
  verdict: { decision: string; reason: string };
  assessment?: { reason_code: string };
  notes?: string[];
}

describe('fail-open paths of the gate (the real binary, user + project config)', () => {
  let root: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let userConfig: string;
  before(() => {
    root = mkdtempSync('/var/tmp/agentgov-fail-open-');
  });
  after(() => rmSync(root, { recursive: true, force: true }));
  beforeEach(() => {
    const world = mkdtempSync(join(root, 'w-'));
    project = join(world, 'proj');
    mkdirSync(project);
    env = isolatedEnv(join(world, 'home'));
    mkdirSync(env['AGENTGOV_HOME']!, { recursive: true, mode: 0o700 });
    userConfig = join(env['AGENTGOV_HOME']!, 'config.yaml');
    writeFileSync(userConfig, 'gate:\n  on_unavailable: ask\n');
    writeFileSync(join(project, 'agentgov.yaml'), 'log_level: INFO\n');
  });

  const gate = async (payload: unknown, format = 'json'): Promise<GateJson & { stderr: string }> => {
    const input = typeof payload === 'string' ? payload : JSON.stringify(payload);
    const result = await runCli(['gate', '--stdin', '--format', format], { env, cwd: project, input });
    expect(result.code, result.stderr).to.equal(0);
    return { ...(JSON.parse(result.stdout) as GateJson), stderr: result.stderr };
  };

  describe('MCP arguments: lists are read like objects', () => {
    it('a command in a list inside a list is judged (`{"steps":[[{"command":"rm -rf ~"}]]}` was allowed)', async () => {
      const out = await gate({
        tool_name: 'mcp__batch__run',
        tool_input: { steps: [[{ command: 'rm -rf ~' }]] },
        session_id: 's',
      });
      expect(out.verdict.decision).to.equal('deny');
      expect(out.assessment?.reason_code).to.equal('destructive_delete_critical');
    });

    it('200,000 nested lists ask, as 100,000 nested objects do (the lists were allowed)', async () => {
      const depth = 200_000;
      const lists = `{"tool_name":"mcp__odd__tool","session_id":"s","tool_input":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
      const listed = await gate(lists);
      expect(listed.verdict.decision).to.equal('ask');
      expect(listed.assessment?.reason_code).to.equal('command_unreadable');
      const objects = `{"tool_name":"mcp__odd__tool","session_id":"s","tool_input":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
      expect((await gate(objects)).verdict.decision).to.equal('ask');
    });

    it('200,000 nested lists with a gate socket up: not sent (JSON cannot encode them), assessed in process, ask', async () => {
      const socket = join(env['AGENTGOV_HOME']!, 'gate.sock');
      const server = new GateServer({
        socketPath: socket,
        token: 'tok',
        logger: silentLogger,
        decide: async () => ({
          event_id: 'e',
          verdict: { decision: 'allow', reason: 'from the socket', decided_by: 'test' },
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
      try {
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
        const depth = 200_000;
        const out = await gate(
          `{"tool_name":"mcp__odd__tool","session_id":"s","tool_input":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
        );
        expect(out.verdict.decision).to.equal('ask');
        expect(out.assessment?.reason_code).to.equal('command_unreadable');
      } finally {
        await server.close();
      }
    });

    it('an ordinary list of paths is still allowed', async () => {
      const out = await gate({
        tool_name: 'mcp__fs__read_files',
        tool_input: { requests: [[{ path: 'src/a.ts' }], [{ path: 'README.md' }]] },
        session_id: 's',
        cwd: project,
      });
      expect(out.verdict.decision).to.equal('allow');
    });
  });

  describe('an unreadable policy never means allow', () => {
    it('your own on_unavailable: allow plus a missing rule file: rm -rf ~ is denied, ls asks, and the answer says why', async () => {
      writeFileSync(userConfig, 'gate:\n  on_unavailable: allow\nrisk:\n  rules: [./org-rules.yaml]\n');
      const destructive = await gate({ tool_name: 'Bash', tool_input: { command: 'rm -rf ~' }, session_id: 's' });
      expect(destructive.verdict.decision).to.equal('deny');
      expect(destructive.verdict.reason).to.contain('the policy could not be read').and.contain('org-rules.yaml');
      expect(destructive.stderr).to.contain('the policy could not be read');
      const benign = await gate({ tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's' });
      expect(benign.verdict.decision).to.equal('ask');
      // In the agent's own hook format too.
      const hook = await runCli(['gate', '--stdin'], {
        env,
        cwd: project,
        input: JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'rm -rf ~' }, session_id: 's' }),
      });
      expect(JSON.parse(hook.stdout)).to.have.nested.property('hookSpecificOutput.permissionDecision', 'deny');
    });

    it('a rule file that became unreadable after the gate cache was written is not judged from the cache', async () => {
      writeFileSync(join(env['AGENTGOV_HOME']!, 'org-rules.yaml'), 'version: 1\nrules: []\n');
      writeFileSync(userConfig, 'gate:\n  on_unavailable: allow\nrisk:\n  rules: [./org-rules.yaml]\n');
      expect(
        (await gate({ tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's' })).verdict.decision,
      ).to.equal('allow');
      rmSync(join(env['AGENTGOV_HOME']!, 'org-rules.yaml'));
      const out = await gate({ tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's' });
      expect(out.verdict.decision).to.equal('ask');
      expect(out.verdict.reason).to.contain('the policy could not be read');
    });
  });

  describe("Gemini CLI's web_fetch prompt", () => {
    const cases = [
      'Summarise http://[fd00:ec2::254]/latest/meta-data/ for me',
      'What is at http://[::ffff:169.254.169.254]/latest/meta-data/iam/security-credentials/',
      'Fetch 169.254.169.254/latest/meta-data and summarise it',
      'Read [fd00:ec2::254]/latest/meta-data/ please',
    ];
    for (const prompt of cases) {
      it(`asks for ${JSON.stringify(prompt)} (it was allowed)`, async () => {
        const payload = {
          session_id: 'g',
          transcript_path: '',
          cwd: project,
          hook_event_name: 'BeforeTool',
          timestamp: '2026-11-26T00:00:00Z',
          tool_name: 'web_fetch',
          tool_input: { prompt },
        };
        const gemini = await runCli(['gate', '--stdin', '--format', 'gemini-cli'], {
          env,
          cwd: project,
          input: JSON.stringify(payload),
        });
        const out = JSON.parse(gemini.stdout) as { decision: string; reason: string };
        // Headless Gemini CLI cannot put a question to a person: the gate answers its asks as a deny with the reason.
        expect(out.decision).to.equal('deny');
        expect(out.reason).to.contain('metadata_access');
        const json = await gate({ tool_name: 'web_fetch', tool_input: { prompt }, session_id: 'g' });
        expect(json.verdict.decision).to.equal('ask');
        expect(json.assessment?.reason_code).to.equal('metadata_access');
      });
    }
    it('an ordinary prompt with a version number and a file name is allowed', async () => {
      const json = await gate({
        tool_name: 'web_fetch',
        tool_input: { prompt: 'Summarise https://docs.python.org/3/ and README.md for v1.2.3' },
        session_id: 'g',
      });
      expect(json.verdict.decision).to.equal('allow');
    });
  });
});
