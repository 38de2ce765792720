import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentgovError } from '@agentgov/core';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { installedGateCommands, installPreToolUseHook, settingsFileOf } from '../src/index.js';

const COMMAND = '/usr/local/bin/agentgov gate --stdin';

describe('agentx-code hook installer', () => {
  it('creates .agentx/settings.json with a PreToolUse command hook', async () => {
    const project = makeTempDir();
    const result = await installPreToolUseHook(project, COMMAND);
    expect(result).to.deep.equal({ changed: true, settingsFile: join(project, '.agentx', 'settings.json') });
    expect(JSON.parse(readFileSync(result.settingsFile, 'utf8'))).to.deep.equal({
      hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: COMMAND }] }] },
    });
  });

  it('keeps every other setting and hook, and a second run changes nothing (byte for byte)', async () => {
    const project = makeTempDir();
    mkdirSync(join(project, '.agentx'));
    const original = {
      model: 'x-large',
      permissions: { allow: ['Bash(ls:*)'] },
      hooks: {
        PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'prettier' }] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'audit.sh' }] }],
      },
    };
    writeFileSync(settingsFileOf(project), JSON.stringify(original));
    expect((await installPreToolUseHook(project, COMMAND)).changed).to.equal(true);
    const once = readFileSync(settingsFileOf(project), 'utf8');
    const parsed = JSON.parse(once);
    expect(parsed.model).to.equal('x-large');
    expect(parsed.permissions).to.deep.equal(original.permissions);
    expect(parsed.hooks.PostToolUse).to.deep.equal(original.hooks.PostToolUse);
    expect(parsed.hooks.PreToolUse).to.deep.equal([
      ...original.hooks.PreToolUse,
      { matcher: '*', hooks: [{ type: 'command', command: COMMAND }] },
    ]);
    expect((await installPreToolUseHook(project, COMMAND)).changed).to.equal(false);
    expect(readFileSync(settingsFileOf(project), 'utf8')).to.equal(once);
  });

  it('points an earlier agentgov gate hook at the new binary instead of adding a second one', async () => {
    const project = makeTempDir();
    await installPreToolUseHook(project, '/old/path/agentgov gate --stdin');
    await installPreToolUseHook(project, COMMAND);
    const parsed = JSON.parse(readFileSync(settingsFileOf(project), 'utf8'));
    expect(parsed.hooks.PreToolUse).to.deep.equal([{ matcher: '*', hooks: [{ type: 'command', command: COMMAND }] }]);
  });

  it('replaces the broken directory command an earlier init wrote (`…/cli gate --stdin`)', async () => {
    const project = makeTempDir();
    await installPreToolUseHook(project, '/src/agentgov/cli gate --stdin');
    await installPreToolUseHook(project, COMMAND);
    expect((await installedGateCommands(project)).commands).to.deep.equal([COMMAND]);
  });

  it('the local scope writes .agentx/settings.local.json; an unknown scope is refused', async () => {
    const project = makeTempDir();
    const result = await installPreToolUseHook(project, COMMAND, { scope: 'local' });
    expect(result.settingsFile).to.equal(join(project, '.agentx', 'settings.local.json'));
    expect((await installedGateCommands(project, { scope: 'local' })).commands).to.deep.equal([COMMAND]);
    expect((await installedGateCommands(project, { scope: 'project' })).commands).to.deep.equal([]);
    await installPreToolUseHook(project, COMMAND, { scope: 'team' }).then(
      () => expect.fail('expected a refusal'),
      (error: unknown) => expect(error).to.be.instanceOf(AgentgovError).and.have.property('code', 'E_INVALID_ARGUMENT'),
    );
  });

  for (const [what, text] of [
    ['invalid JSON', '{ "model": "x", '],
    ['a JSON array', '[]'],
    ['hooks of the wrong type', '{"hooks": []}'],
    ['PreToolUse of the wrong type', '{"hooks": {"PreToolUse": {}}}'],
  ] as const) {
    it(`leaves a settings file with ${what} untouched and throws E_SETTINGS_INVALID`, async () => {
      const project = makeTempDir();
      mkdirSync(join(project, '.agentx'));
      writeFileSync(settingsFileOf(project), text);
      let thrown: unknown;
      try {
        await installPreToolUseHook(project, COMMAND);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).to.be.instanceOf(AgentgovError);
      expect((thrown as AgentgovError).code).to.equal('E_SETTINGS_INVALID');
      expect((thrown as AgentgovError).message).to.contain(settingsFileOf(project));
      expect(readFileSync(settingsFileOf(project), 'utf8')).to.equal(text);
    });
  }
});
