import { join } from 'node:path';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { cursorHookInstaller } from '../src/index.js';

const GATE = '/usr/bin/node /opt/agentgov/bin/agentgov.js gate --stdin --format cursor';

describe('cursor hook installer', () => {
  it('writes the project file by default and the user file under $HOME, and reads back what it installed', async () => {
    expect(cursorHookInstaller.scopes.join(', ')).to.equal('project, user');
    const project = makeTempDir();
    const first = await cursorHookInstaller.install(project, GATE);
    expect(first).to.deep.equal({ changed: true, settingsFile: join(project, '.cursor/hooks.json') });
    expect(await cursorHookInstaller.installed(project)).to.deep.equal({
      settingsFile: join(project, '.cursor/hooks.json'),
      commands: [GATE],
    });
    const user = makeTempDir();
    const saved = process.env['HOME'];
    process.env['HOME'] = user;
    try {
      const result = await cursorHookInstaller.install(project, GATE, { scope: 'user' });
      expect(result).to.deep.equal({ changed: true, settingsFile: join(user, '.cursor/hooks.json') });
      expect((await cursorHookInstaller.install(project, GATE, { scope: 'user' })).changed).to.equal(false);
    } finally {
      if (saved === undefined) delete process.env['HOME'];
      else process.env['HOME'] = saved;
    }
    let error: unknown;
    try {
      await cursorHookInstaller.install(project, GATE, { scope: 'team' });
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string }).code).to.equal('E_INVALID_ARGUMENT');
  });
});
