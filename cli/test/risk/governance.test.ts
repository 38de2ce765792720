import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolCallEvent } from '@agentgov/core';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { createRiskEngine, type RiskEngine } from '../../src/risk/engine.js';

/**
 * The gate's own ground (rules/governance.yaml) and paths judged by where their links lead: an
 * agent that rewrites its hook settings, removes agentgov's state or writes through a link in
 * the project to ~/.ssh gets asked, never waved through. Real directories and links in a temp dir.
 */
describe('risk engine: governance tampering and symbolic links', function () {
  let root: string;
  let home: string;
  let project: string;
  let agentgovHome: string;
  let engine: RiskEngine;
  const event = (tool: string, args: Record<string, unknown>, canonical = tool): ToolCallEvent => ({
    id: 't:s:1',
    framework: 'test',
    session_id: 's',
    timestamp: '2026-11-23T00:00:00Z',
    cwd: project,
    tool_name: tool,
    canonical_tool: canonical as ToolCallEvent['canonical_tool'],
    arguments: args,
  });
  const shell = (command: string) => engine.assess(event('Bash', { command }, 'shell'));

  before(async function () {
    root = makeTempDir('governance-');
    home = join(root, 'home');
    project = join(home, 'src', 'app');
    agentgovHome = join(root, 'state', 'agentgov');
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'key');
    writeFileSync(join(home, '.ssh', 'authorized_keys'), 'keys');
    writeFileSync(join(home, '.bashrc'), '');
    mkdirSync(join(project, 'src'), { recursive: true });
    mkdirSync(agentgovHome, { recursive: true });
    symlinkSync(join(home, '.ssh'), join(project, 'sshlink'));
    symlinkSync(join(home, '.bashrc'), join(project, 'rc'));
    symlinkSync(join(project, 'src'), join(project, 'srclink'));
    engine = await createRiskEngine({ home, protectedPaths: [agentgovHome] });
  });

  const settings = [
    '.agentx/settings.json',
    '.agentx/settings.local.json',
    '.claude/settings.json',
    '.claude/settings.local.json',
    '.codex/hooks.json',
    '.github/hooks/agentgov.json',
    '.cursor/hooks.json',
    '.gemini/settings.json',
    'agentgov.yaml',
  ];
  for (const file of settings) {
    it(`a Write or Edit of ${file} asks (governance_tampering)`, function () {
      for (const [tool, args] of [
        ['write', { file_path: join(project, file), content: '{}' }],
        ['edit', { file_path: file, old_string: 'gate', new_string: 'x' }],
      ] as const) {
        const answer = engine.assess(event(tool, args));
        expect(answer.action, tool).to.equal('ask');
        expect(answer.reason_code, tool).to.equal('governance_tampering');
      }
    });
  }

  for (const command of [
    'echo {} > .agentx/settings.json',
    'sed -i s/gate/true/ .claude/settings.local.json',
    'rm -rf .claude',
    'mv .cursor/hooks.json /tmp/',
    'cp /dev/null .gemini/settings.json',
    'truncate -s 0 .codex/hooks.json',
    `rm -rf ${'$'}HOME/.agentgov`,
    `python3 -c 'import json; json.dump({}, open(".claude/settings.local.json", "w"))'`,
  ]) {
    it(`${command} asks (governance_tampering)`, function () {
      const answer = shell(command);
      expect(answer.action).to.be.oneOf(['ask', 'deny']);
      expect(answer.reason_code).to.equal('governance_tampering');
    });
  }

  it("agentgov's relocated state ($AGENTGOV_HOME) is protected, not only ~/.agentgov", function () {
    expect(shell(`rm -rf ${agentgovHome}`).reason_code).to.equal('governance_tampering');
    expect(
      engine.assess(event('write', { file_path: join(agentgovHome, 'config.yaml'), content: 'x' })).reason_code,
    ).to.equal('governance_tampering');
    expect(shell(`rm -rf ${join(root, 'state', 'other')}`).reason_code).to.not.equal('governance_tampering');
  });

  it('reading the settings, and editing ordinary files named like them, stays allowed', function () {
    for (const command of [
      'cat .claude/settings.json',
      'jq . .agentx/settings.json',
      'git diff .cursor/hooks.json',
      'cat docs/settings.json',
      'echo x > src/settings.json',
    ])
      expect(shell(command).action, command).to.be.oneOf(['allow', 'warn']);
    expect(
      engine.assess(event('write', { file_path: join(project, 'src', 'hooks.json'), content: '{}' })).action,
    ).to.equal('allow');
  });

  it('a written git hook or git config asks (persistence)', function () {
    const answer = engine.assess(
      event('write', { file_path: join(project, '.git', 'hooks', 'pre-commit'), content: 'npm test' }),
    );
    expect(answer.action).to.equal('ask');
    expect(answer.reason_code).to.equal('persistence');
    // What the hook will run is judged too (write, then run).
    expect(
      engine.assess(event('write', { file_path: join(project, '.git', 'hooks', 'pre-commit'), content: 'rm -rf ~' }))
        .reason_code,
    ).to.equal('destructive_delete_critical');
    expect(shell('echo "curl x | sh" > .git/hooks/post-checkout').action).to.be.oneOf(['ask', 'deny']);
  });

  it('a path through a link in the project is judged by its target: ~/.ssh, ~/.bashrc', function () {
    const edit = engine.assess(
      event('edit', { file_path: join(project, 'sshlink', 'authorized_keys'), old_string: 'a', new_string: 'b' }),
    );
    expect(edit.action).to.equal('ask');
    expect(edit.evidence.paths?.join(' ')).to.contain(join(home, '.ssh', 'authorized_keys'));
    expect(engine.assess(event('read', { file_path: 'sshlink/id_rsa' })).reason_code).to.equal('secret_access');
    expect(engine.assess(event('write', { file_path: 'rc', content: 'x' })).reason_code).to.equal('persistence');
    expect(shell('cat sshlink/id_rsa').reason_code).to.equal('secret_access');
    expect(shell('echo "curl x | sh" >> rc').action).to.be.oneOf(['ask', 'deny']);
  });

  it('a link that stays inside the project is the project; with links not followed, the name decides', async function () {
    expect(engine.assess(event('write', { file_path: 'srclink/index.ts', content: 'x' })).action).to.equal('allow');
    expect(shell('rm -rf srclink/build').action).to.equal('allow');
    const literal = await createRiskEngine({ home, protectedPaths: [agentgovHome], followLinks: false });
    expect(
      literal.assess(
        event('edit', { file_path: join(project, 'sshlink', 'authorized_keys'), old_string: 'a', new_string: 'b' }),
      ).action,
    ).to.equal('allow');
  });

  it('a project under a linked directory is still the project', async function () {
    const alias = join(root, 'alias');
    symlinkSync(home, alias);
    const viaAlias = {
      ...event('write', { file_path: join(alias, 'src', 'app', 'src', 'a.ts'), content: 'x' }),
      cwd: join(alias, 'src', 'app'),
    };
    expect(engine.assess(viaAlias).action).to.equal('allow');
    expect(
      engine.assess({
        ...viaAlias,
        canonical_tool: 'shell',
        tool_name: 'Bash',
        arguments: { command: 'rm -rf node_modules dist' },
      }).action,
    ).to.equal('allow');
  });
});
