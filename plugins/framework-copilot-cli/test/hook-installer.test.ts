import { join } from 'node:path';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { copilotHookInstaller } from '../src/index.js';

const GATE = '/usr/bin/node /opt/agentgov/bin/agentgov.js gate --stdin --format copilot-cli';

describe('copilot-cli hook installer', () => {
  it('writes the project file by default and the user file under $COPILOT_HOME, and reads back what it installed', async () => {
    expect(copilotHookInstaller.scopes.join(', ')).to.equal('project, user');
    const project = makeTempDir();
    const first = await copilotHookInstaller.install(project, GATE);
    expect(first).to.deep.equal({ changed: true, settingsFile: join(project, '.github/hooks/agentgov.json') });
    expect(await copilotHookInstaller.installed(project)).to.deep.equal({ settingsFile: join(project, '.github/hooks/agentgov.json'), commands: [GATE] });
    const user = makeTempDir();
    const saved = process.env['COPILOT_HOME'];
    process.env['COPILOT_HOME'] = user;
    try {
      const result = await copilotHookInstaller.install(project, GATE, { scope: 'user' });
      expect(result).to.deep.equal({ changed: true, settingsFile: join(user, 'hooks/agentgov.json') });
      expect((await copilotHookInstaller.install(project, GATE, { scope: 'user' })).changed).to.equal(false);
    } finally {
      if (saved === undefined) delete process.env['COPILOT_HOME'];
      else process.env['COPILOT_HOME'] = saved;
    }
    let error: unknown;
    try {
      await copilotHookInstaller.install(project, GATE, { scope: 'team' });
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string }).code).to.equal('E_INVALID_ARGUMENT');
  });
});
