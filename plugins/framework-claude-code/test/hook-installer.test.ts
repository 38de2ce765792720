import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { claudeHookInstaller } from '../src/index.js';

const GATE = '/usr/bin/node /opt/agentgov/bin/agentgov.js gate --stdin --format claude-code';

describe('claude-code hook installer', () => {
  it('writes the project file by default and the user file under $CLAUDE_CONFIG_DIR, and reads back what it installed', async () => {
    expect(claudeHookInstaller.scopes.join(', ')).to.equal('local, project, user');
    const project = makeTempDir();
    const first = await claudeHookInstaller.install(project, GATE);
    expect(first).to.deep.equal({ changed: true, settingsFile: join(project, '.claude/settings.local.json') });
    expect(await claudeHookInstaller.installed(project)).to.deep.equal({
      settingsFile: join(project, '.claude/settings.local.json'),
      commands: [GATE],
    });
    const user = makeTempDir();
    const saved = process.env['CLAUDE_CONFIG_DIR'];
    process.env['CLAUDE_CONFIG_DIR'] = user;
    try {
      const result = await claudeHookInstaller.install(project, GATE, { scope: 'user' });
      expect(result).to.deep.equal({ changed: true, settingsFile: join(user, 'settings.json') });
      expect((await claudeHookInstaller.install(project, GATE, { scope: 'user' })).changed).to.equal(false);
    } finally {
      if (saved === undefined) delete process.env['CLAUDE_CONFIG_DIR'];
      else process.env['CLAUDE_CONFIG_DIR'] = saved;
    }
    let error: unknown;
    try {
      await claudeHookInstaller.install(project, GATE, { scope: 'team' });
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string }).code).to.equal('E_INVALID_ARGUMENT');
  });

  it('activation: ok for a plain project; fails with the file and remedy when a layer disables hooks or allows managed hooks only', async () => {
    const project = makeTempDir();
    const home = makeTempDir();
    const managed = join(makeTempDir(), 'managed-settings.json');
    const env = { HOME: home, AGENTGOV_CLAUDE_MANAGED_SETTINGS: managed };
    await claudeHookInstaller.install(project, GATE, { env });
    const plain = await claudeHookInstaller.activation!(project, { env });
    expect(plain.map((c) => [c.name, c.status])).to.deep.equal([
      ['settings readable', 'ok'],
      ['hooks enabled', 'ok'],
    ]);
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ disableAllHooks: true }));
    writeFileSync(managed, JSON.stringify({ allowManagedHooksOnly: true }));
    const off = await claudeHookInstaller.activation!(project, { env });
    expect(off.filter((c) => c.status === 'fail').map((c) => c.name)).to.deep.equal([
      'hooks enabled',
      'hooks from this file allowed',
    ]);
    expect(off[1]!.detail).to.contain(join(home, '.claude', 'settings.json'));
    expect(off[1]!.remedy).to.contain('remove "disableAllHooks"');
    writeFileSync(join(project, '.claude', 'settings.json'), '{ broken');
    const broken = await claudeHookInstaller.activation!(project, { env });
    expect(broken[0]).to.include({ name: 'settings readable', status: 'fail' });
  });
});
