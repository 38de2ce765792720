/**
 * Issue 16, finding 7: a cloned repository cannot switch the safety off. Through the real CLI
 * binary: a project's ./agentgov.yaml may not loosen `gate.on_unavailable`, its rule files load
 * only once trusted (and again after an edit), and hostile config files are positioned errors.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { runCli } from '../support/cli-process.js';

const call = (command: string) => JSON.stringify({ tool_name: 'Bash', arguments: { command }, session_id: 's' });
const RULES =
  'version: 1\nrules:\n  - id: project.no-hello\n    title: the project forbids hello\n    reason_code: project_policy\n    score: 95\n    match:\n      command: [echo]\n      args_regex: ["^hello$"]\n';

describe('project config trust (the real binary)', () => {
  let root: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    root = makeTempDir('trust-');
    project = join(root, 'cloned repo');
    mkdirSync(project);
    env = isolatedEnv(join(root, 'home'));
  });

  it('gate.on_unavailable: allow from a project config is ignored, and the answer says so', async () => {
    writeFileSync(join(project, 'agentgov.yaml'), 'gate:\n  on_unavailable: allow\n');
    const result = await runCli(['gate', '--stdin', '--format', 'json'], { env, cwd: project, input: '{"tool_name":' });
    const out = JSON.parse(result.stdout) as { verdict: { decision: string }; notes: string[] };
    expect(out.verdict.decision).to.equal('ask');
    expect(out.notes.join(' ')).to.contain('ignored gate.on_unavailable: "allow" from the project config');
    const hook = await runCli(['gate', '--stdin'], { env, cwd: project, input: '{"tool_name":' });
    expect(JSON.parse(hook.stdout)).to.have.nested.property('hookSpecificOutput.permissionDecision', 'ask');
    const show = await runCli(['config', 'show'], { env, cwd: project });
    expect(show.stdout).to.contain('# ignored gate.on_unavailable: "allow"').and.contain('on_unavailable: ask');
  });

  it("the same setting from the user's own config is honoured", async () => {
    mkdirSync(env['AGENTGOV_HOME']!, { recursive: true });
    writeFileSync(join(env['AGENTGOV_HOME']!, 'config.yaml'), 'gate:\n  on_unavailable: allow\n');
    const result = await runCli(['gate', '--stdin', '--format', 'json'], { env, cwd: project, input: '{"tool_name":' });
    expect(JSON.parse(result.stdout)).to.have.nested.property('verdict.decision', 'allow');
  });

  it('rule files named by a project config load only after `agentgov trust`, and again after an edit', async () => {
    writeFileSync(join(project, 'rules.yaml'), RULES);
    writeFileSync(join(project, 'agentgov.yaml'), 'risk:\n  rules: [./rules.yaml]\n');
    const untrusted = JSON.parse(
      (await runCli(['gate', '--stdin', '--format', 'json'], { env, cwd: project, input: call('echo hello') })).stdout,
    ) as { verdict: { decision: string }; notes: string[] };
    expect(untrusted.verdict.decision).to.equal('allow');
    expect(untrusted.notes.join(' '))
      .to.contain('ignored rule file ./rules.yaml named by the untrusted project config')
      .and.contain('agentgov trust');
    const trust = await runCli(['trust', project], { env, cwd: root });
    expect(trust.code, trust.stderr).to.equal(0);
    expect(statSync(join(env['AGENTGOV_HOME']!, 'trust.json')).mode & 0o777).to.equal(0o600);
    const trusted = JSON.parse(
      (await runCli(['gate', '--stdin', '--format', 'json'], { env, cwd: project, input: call('echo hello') })).stdout,
    ) as { verdict: { decision: string } };
    expect(trusted.verdict.decision).to.equal('deny');
    writeFileSync(join(project, 'agentgov.yaml'), 'risk:\n  rules: [./rules.yaml]\nlog_level: DEBUG\n');
    const edited = JSON.parse(
      (await runCli(['gate', '--stdin', '--format', 'json'], { env, cwd: project, input: call('echo hello') })).stdout,
    ) as { verdict: { decision: string } };
    expect(edited.verdict.decision).to.equal('allow');
  });
});

describe('config loading is bounded (the real binary)', () => {
  let root: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    root = makeTempDir('bounds-');
    env = isolatedEnv(join(root, 'home'));
  });

  it('a YAML alias bomb is a config error with its position, not E_INTERNAL', async () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++)
      lines.push(
        `a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    writeFileSync(join(root, 'bomb.yaml'), `${lines.join('\n')}\n`);
    const result = await runCli(['config', 'validate', '--config', join(root, 'bomb.yaml')], { env, cwd: root });
    expect(result.code).to.equal(1);
    expect(result.stdout + result.stderr)
      .to.match(/bomb\.yaml:\d+:\d+ error at \(yaml\): more than 64 YAML aliases/)
      .and.not.contain('E_INTERNAL');
    const show = await runCli(['config', 'show', '--config', join(root, 'bomb.yaml')], { env, cwd: root });
    expect(show.code).to.equal(3);
    expect(show.stderr)
      .to.contain('E_CONFIG_INVALID')
      .and.match(/bomb\.yaml:\d+:\d+/);
  });

  it('a few aliases that expand too far are refused too', async () => {
    const lines = ['b0: &b0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 6; i++)
      lines.push(
        `b${i}: &b${i} [${Array(10)
          .fill(`*b${i - 1}`)
          .join(', ')}]`,
      );
    writeFileSync(join(root, 'bomb.yaml'), `${lines.join('\n')}\n`);
    const result = await runCli(['config', 'validate', '--config', join(root, 'bomb.yaml')], { env, cwd: root });
    expect(result.code).to.equal(1);
    expect(result.stdout + result.stderr).to.match(/bomb\.yaml:2:\d+ error at \(yaml\): YAML aliases expand too far/);
  });

  it('a 100k-key project config is refused at once by size; a config over the key bound names where', async () => {
    writeFileSync(
      join(root, 'agentgov.yaml'),
      `x:\n${Array.from({ length: 100_000 }, (_, i) => `  k${i}: 1\n`).join('')}`,
    );
    const big = await runCli(['config', 'validate'], { env, cwd: root });
    expect(big.code).to.equal(1);
    expect(big.stdout + big.stderr).to.match(
      /agentgov\.yaml:1:1 error at \(yaml\): the file is \d+ bytes; a config file may have at most 65536/,
    );
    // The gate with that project config still answers (per on_unavailable), and says why.
    const gate = await runCli(['gate', '--stdin', '--format', 'json'], { env, cwd: root, input: call('ls') });
    const out = JSON.parse(gate.stdout) as { verdict: { decision: string; reason: string } };
    expect(out.verdict.decision).to.equal('ask');
    expect(out.verdict.reason).to.contain('the policy could not be read').and.contain('65536');
    writeFileSync(join(root, 'deep.yaml'), `x:\n${Array.from({ length: 6000 }, (_, i) => `  k${i}: 1\n`).join('')}`);
    const many = await runCli(['config', 'validate', '--config', join(root, 'deep.yaml')], { env, cwd: root });
    expect(many.stdout + many.stderr).to.match(/deep\.yaml:\d+:\d+ error at \(yaml\): more than 5000 keys and values/);
  });
});
