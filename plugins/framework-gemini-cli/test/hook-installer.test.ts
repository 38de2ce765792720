import { join } from 'node:path';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { geminiHookInstaller } from '../src/index.js';

const GATE = '/usr/bin/node /opt/agentgov/bin/agentgov.js gate --stdin --format gemini-cli';

describe('gemini-cli hook installer', () => {
  it('writes the project file by default and the user file under $GEMINI_CLI_HOME, and reads back what it installed', async () => {
    expect(geminiHookInstaller.scopes.join(', ')).to.equal('project, user');
    const project = makeTempDir();
    const first = await geminiHookInstaller.install(project, GATE);
    expect(first).to.deep.equal({ changed: true, settingsFile: join(project, '.gemini/settings.json') });
    expect(await geminiHookInstaller.installed(project)).to.deep.equal({ settingsFile: join(project, '.gemini/settings.json'), commands: [GATE] });
    const user = makeTempDir();
    const saved = process.env['GEMINI_CLI_HOME'];
    process.env['GEMINI_CLI_HOME'] = user;
    try {
      const result = await geminiHookInstaller.install(project, GATE, { scope: 'user' });
      expect(result).to.deep.equal({ changed: true, settingsFile: join(user, '.gemini/settings.json') });
      expect((await geminiHookInstaller.install(project, GATE, { scope: 'user' })).changed).to.equal(false);
    } finally {
      if (saved === undefined) delete process.env['GEMINI_CLI_HOME'];
      else process.env['GEMINI_CLI_HOME'] = saved;
    }
    let error: unknown;
    try {
      await geminiHookInstaller.install(project, GATE, { scope: 'team' });
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string }).code).to.equal('E_INVALID_ARGUMENT');
  });
});
