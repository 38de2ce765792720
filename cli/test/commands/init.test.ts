import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { gateHookCommand } from '../../src/gate/hook-command.js';
import { runCli } from '../support/cli-process.js';

/** What init must write: this node and the committed bin entry, absolute, with the agent's format. */
const expectedCommand = gateHookCommand('agentx-code');

describe('agentgov init (the real binary)', () => {
  let home: string;
  let project: string;
  let settings: string;
  beforeEach(() => {
    home = makeTempDir('init-');
    project = join(home, 'proj');
    mkdirSync(project);
    settings = join(project, '.agentx', 'settings.json');
  });

  it('writes the PreToolUse hook with the absolute agentgov path; a second run changes nothing', async () => {
    const first = await runCli(['init', 'agentx-code', '-p', project], { env: isolatedEnv(home), cwd: home });
    expect(first.code, first.stderr).to.equal(0);
    expect(first.stdout).to.contain('installed the agentx-code PreToolUse hook');
    const written = readFileSync(settings, 'utf8');
    const parsed = JSON.parse(written) as {
      hooks: { PreToolUse: { matcher: string; hooks: { type: string; command: string }[] }[] };
    };
    expect(parsed.hooks.PreToolUse).to.deep.equal([
      { matcher: '*', hooks: [{ type: 'command', command: expectedCommand }] },
    ]);
    const second = await runCli(['init', 'agentx-code', '--project', project], { env: isolatedEnv(home), cwd: home });
    expect(second.code).to.equal(0);
    expect(second.stdout).to.contain('nothing changed');
    expect(readFileSync(settings, 'utf8')).to.equal(written);
  });

  it('defaults --project to the current directory and keeps every other setting', async () => {
    mkdirSync(join(project, '.agentx'));
    writeFileSync(
      settings,
      JSON.stringify({
        permissions: { allow: ['Bash(ls)'] },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'other-tool' }] }] },
      }),
    );
    const result = await runCli(['init', 'agentx-code'], { env: isolatedEnv(home), cwd: project });
    expect(result.code, result.stderr).to.equal(0);
    const parsed = JSON.parse(readFileSync(settings, 'utf8')) as {
      permissions: unknown;
      hooks: { PreToolUse: { hooks: { command: string }[] }[] };
    };
    expect(parsed.permissions).to.deep.equal({ allow: ['Bash(ls)'] });
    expect(parsed.hooks.PreToolUse.map((e) => e.hooks[0]!.command)).to.deep.equal(['other-tool', expectedCommand]);
  });

  it('leaves a settings file that is not valid JSON untouched and reports it (exit 1)', async () => {
    mkdirSync(join(project, '.agentx'));
    writeFileSync(settings, '{ "hooks": { oops');
    const result = await runCli(['init', 'agentx-code', '-p', project], { env: isolatedEnv(home), cwd: home });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.contain('E_SETTINGS_INVALID').and.contain(settings);
    expect(readFileSync(settings, 'utf8')).to.equal('{ "hooks": { oops');
  });

  it('an unknown agent lists the supported ones (exit 2)', async () => {
    const result = await runCli(['init', 'windsurf', '-p', project], { env: isolatedEnv(home), cwd: home });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.contain(
      "unknown agent 'windsurf'; supported agents: agentx-code, claude-code, codex, copilot-cli, cursor, gemini-cli",
    );
  });

  it('a project directory that does not exist is exit 4', async () => {
    const result = await runCli(['init', 'agentx-code', '-p', join(home, 'missing')], {
      env: isolatedEnv(home),
      cwd: home,
    });
    expect(result.code).to.equal(4);
    expect(result.stderr).to.contain('does not exist');
  });
});
