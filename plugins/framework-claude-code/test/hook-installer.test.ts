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
    expect(await claudeHookInstaller.installed(project)).to.deep.equal({ settingsFile: join(project, '.claude/settings.local.json'), commands: [GATE] });
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
});
