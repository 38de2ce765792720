/**
 * Issue 26, fail-open path 1: a project's ./agentgov.yaml used to replace the user's own config.
 * Now the user's file is the floor and the project merges over it, only tightening. Through the
 * real binary, with both a user config and a project config present, homes under /var/tmp (not
 * only /tmp).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv } from '@agentgov/core/testing';
import { expect } from 'chai';
import { runCli } from '../support/cli-process.js';

const call = (command: string) => JSON.stringify({ tool_name: 'Bash', tool_input: { command }, session_id: 's' });
const ORG_RULES = [
  'version: 1',
  'rules:',
  '  - id: org.no-curl',
  '    title: the organisation forbids curl',
  '    reason_code: org_policy',
  '    score: 95',
  '    match:',
  '      command: [curl]',
  '',
].join('\n');

interface GateJson {
  verdict: { decision: string; reason: string };
  notes?: string[];
}

describe('the user config is the floor, a project config only tightens (the real binary)', () => {
  let root: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let userConfig: string;
  before(() => {
    root = mkdtempSync('/var/tmp/agentgov-precedence-');
  });
  after(() => rmSync(root, { recursive: true, force: true }));
  beforeEach(() => {
    const world = mkdtempSync(join(root, 'w-'));
    project = join(world, 'cloned repo');
    mkdirSync(project);
    env = isolatedEnv(join(world, 'home'));
    mkdirSync(env['AGENTGOV_HOME']!, { recursive: true, mode: 0o700 });
    writeFileSync(join(env['AGENTGOV_HOME']!, 'org-rules.yaml'), ORG_RULES);
    userConfig = join(env['AGENTGOV_HOME']!, 'config.yaml');
    writeFileSync(userConfig, 'risk:\n  rules: [./org-rules.yaml]\ngate:\n  on_unavailable: deny\n');
  });

  const gate = async (input: string): Promise<GateJson> => {
    const result = await runCli(['gate', '--stdin', '--format', 'json'], { env, cwd: project, input });
    expect(result.code, result.stderr).to.equal(0);
    return JSON.parse(result.stdout) as GateJson;
  };

  it('an organisation rule denying curl keeps applying when the project config sets log_level: INFO', async () => {
    const before = await gate(call('curl https://example.com/x'));
    expect(before.verdict.decision).to.equal('deny');
    writeFileSync(join(project, 'agentgov.yaml'), 'log_level: INFO\n');
    const after = await gate(call('curl https://example.com/x'));
    expect(after.verdict.decision).to.equal('deny');
    expect(after.verdict.reason).to.contain('org.no-curl');
    // The agentx-code hook format too: the verdict the agent reads.
    const hook = await runCli(['gate', '--stdin'], { env, cwd: project, input: call('curl https://example.com/x') });
    expect(JSON.parse(hook.stdout)).to.have.nested.property('hookSpecificOutput.permissionDecision', 'deny');
  });

  it('a project may not remove the user rule files: its own risk.rules are added after them', async () => {
    writeFileSync(join(project, 'agentgov.yaml'), 'risk:\n  rules: []\n');
    expect((await gate(call('curl https://example.com/x'))).verdict.decision).to.equal('deny');
  });

  it('on_unavailable: deny survives a project on_unavailable: allow, and the answer names key and file', async () => {
    writeFileSync(join(project, 'agentgov.yaml'), 'gate:\n  on_unavailable: allow\n');
    const out = await gate('{"tool_name":');
    expect(out.verdict.decision).to.equal('deny');
    const note = (out.notes ?? []).join(' ');
    expect(note).to.contain('ignored gate.on_unavailable: "allow"').and.contain(join(project, 'agentgov.yaml'));
    expect(note).to.contain(`your config ${userConfig} says 'deny'`);
  });

  it('a project may tighten: on_unavailable ask → deny is taken', async () => {
    writeFileSync(userConfig, 'gate:\n  on_unavailable: ask\n');
    writeFileSync(join(project, 'agentgov.yaml'), 'gate:\n  on_unavailable: deny\n');
    const out = await gate('{"tool_name":');
    expect(out.verdict.decision).to.equal('deny');
    expect(out.notes ?? []).to.deep.equal([]);
  });

  it('a project may lower the gate deadline (watch down: applied once the config is loaded), never raise it', async () => {
    writeFileSync(join(project, 'agentgov.yaml'), 'gate:\n  deadline_ms: 1\n');
    const lowered = await gate(call('ls'));
    expect(lowered.verdict.decision).to.equal('deny'); // on_unavailable deny from the user's file, never allow
    expect(lowered.verdict.reason).to.contain("no verdict within the gate's deadline of 1 ms");
    writeFileSync(join(project, 'agentgov.yaml'), 'gate:\n  deadline_ms: 999999\n');
    const raised = await gate(call('ls'));
    expect(raised.verdict.decision).to.equal('allow');
    expect((raised.notes ?? []).join(' ')).to.contain('ignored gate.deadline_ms: 999999 from the project config');
  });

  it('config show says where each effective value came from', async () => {
    writeFileSync(
      join(project, 'agentgov.yaml'),
      'log_level: WARNING\ngate:\n  on_unavailable: allow\n  timeout_ms: 1000\n',
    );
    const show = await runCli(['config', 'show'], { env, cwd: project });
    expect(show.code, show.stderr).to.equal(0);
    const rows = new Map(show.stdout.split('\n').map((line) => line.split(/ {2,}/) as [string, string]));
    expect(rows.get('log_level')).to.equal(`project file ${join(project, 'agentgov.yaml')}`);
    expect(rows.get('gate.on_unavailable')).to.equal(`user file ${userConfig}`);
    expect(rows.get('gate.timeout_ms')).to.equal(`project file ${join(project, 'agentgov.yaml')}`);
    expect(rows.get('risk.rules')).to.equal(`user file ${userConfig}`);
    expect(rows.get('score.listen')).to.equal('default');
    expect(show.stdout).to.contain('# ignored gate.on_unavailable: "allow" from the project config');
    const json = await runCli(['config', 'show', '--json'], { env, cwd: project });
    const shown = JSON.parse(json.stdout) as {
      config: { gate: unknown; risk: { rules: string[] } };
      sources: Record<string, { from: string; file: string | null }>;
      layers: { role: string; file: string }[];
    };
    expect(shown.config.gate).to.deep.equal({ on_unavailable: 'deny', timeout_ms: 1000, deadline_ms: 30000 });
    expect(shown.config.risk.rules).to.deep.equal([join(env['AGENTGOV_HOME']!, 'org-rules.yaml')]);
    expect(shown.sources['gate.on_unavailable']).to.deep.equal({ from: 'user', file: userConfig });
    expect(shown.layers.map((layer) => layer.role)).to.deep.equal(['user', 'project']);
  });

  it('--config is the floor too: the project merges over it and cannot loosen it', async () => {
    const custom = join(root, 'custom.yaml');
    writeFileSync(custom, 'gate:\n  on_unavailable: deny\n');
    writeFileSync(join(project, 'agentgov.yaml'), 'gate:\n  on_unavailable: allow\nlog_level: ERROR\n');
    const show = await runCli(['config', 'show', '--json', '--config', custom], { env, cwd: project });
    const shown = JSON.parse(show.stdout) as {
      config: { gate: { on_unavailable: string }; log_level: string };
      ignored: string[];
    };
    expect(shown.config.gate.on_unavailable).to.equal('deny');
    expect(shown.config.log_level).to.equal('ERROR');
    expect(shown.ignored.join(' ')).to.contain('gate.on_unavailable');
  });

  it('an unreadable user config is an error, never replaced by the project one', async () => {
    writeFileSync(userConfig, 'gate:\n  on_unavailable: [\n');
    writeFileSync(join(project, 'agentgov.yaml'), 'gate:\n  on_unavailable: allow\n');
    const show = await runCli(['config', 'show'], { env, cwd: project });
    expect(show.code).to.equal(3);
    expect(show.stderr).to.contain('E_CONFIG_INVALID').and.contain(userConfig);
    const out = await gate(call('rm -rf ~'));
    expect(out.verdict.decision).to.not.equal('allow');
  });
});
