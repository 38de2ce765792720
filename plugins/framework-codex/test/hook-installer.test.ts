import { join } from 'node:path';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { codexHookInstaller } from '../src/index.js';

const GATE = '/usr/bin/node /opt/agentgov/bin/agentgov.js gate --stdin --format codex';

describe('codex hook installer', () => {
  it('writes the project file by default and the user file under $CODEX_HOME, and reads back what it installed', async () => {
    expect(codexHookInstaller.scopes.join(', ')).to.equal('project, user');
    const project = makeTempDir();
    const first = await codexHookInstaller.install(project, GATE);
    expect(first).to.deep.equal({ changed: true, settingsFile: join(project, '.codex/hooks.json') });
    expect(await codexHookInstaller.installed(project)).to.deep.equal({ settingsFile: join(project, '.codex/hooks.json'), commands: [GATE] });
    const user = makeTempDir();
    const saved = process.env['CODEX_HOME'];
    process.env['CODEX_HOME'] = user;
    try {
      const result = await codexHookInstaller.install(project, GATE, { scope: 'user' });
      expect(result).to.deep.equal({ changed: true, settingsFile: join(user, 'hooks.json') });
      expect((await codexHookInstaller.install(project, GATE, { scope: 'user' })).changed).to.equal(false);
    } finally {
      if (saved === undefined) delete process.env['CODEX_HOME'];
      else process.env['CODEX_HOME'] = saved;
    }
    let error: unknown;
    try {
      await codexHookInstaller.install(project, GATE, { scope: 'team' });
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string }).code).to.equal('E_INVALID_ARGUMENT');
  });
});
