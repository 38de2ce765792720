import { writeFileSync } from 'node:fs';
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
    expect(await codexHookInstaller.installed(project)).to.deep.equal({
      settingsFile: join(project, '.codex/hooks.json'),
      commands: [GATE],
    });
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

  it('activation without codex on PATH: the folder untrusted and no trust record fail with the steps; a record is ?? ; hooks off fails', async () => {
    const project = makeTempDir();
    const codexHome = makeTempDir();
    const env = { HOME: makeTempDir(), CODEX_HOME: codexHome, PATH: makeTempDir() };
    await codexHookInstaller.install(project, GATE, { env });
    const fresh = await codexHookInstaller.activation!(project, { env });
    expect(fresh.map((c) => [c.name, c.status])).to.deep.equal([
      ['hooks enabled', 'ok'],
      ['project trusted', 'fail'],
      ['hook reviewed and trusted in Codex', 'fail'],
    ]);
    expect(fresh[1]!.remedy).to.contain('answer that you trust this folder').and.contain('--trust');
    expect(fresh[2]!.remedy).to.contain('/hooks');
    const file = join(project, '.codex', 'hooks.json');
    writeFileSync(
      join(codexHome, 'config.toml'),
      `[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n\n[hooks.state.${JSON.stringify(`${file}:pre_tool_use:0:0`)}]\ntrusted_hash = "sha256:00"\n`,
    );
    const recorded = await codexHookInstaller.activation!(project, { env });
    expect(recorded.map((c) => [c.name, c.status])).to.deep.equal([
      ['hooks enabled', 'ok'],
      ['project trusted', 'ok'],
      ['hook reviewed and trusted in Codex', 'unknown'],
    ]);
    writeFileSync(
      join(codexHome, 'config.toml'),
      `[features]\nhooks = false\n[projects.${JSON.stringify(project)}]\ntrust_level = "untrusted"\n`,
    );
    const off = await codexHookInstaller.activation!(project, { env });
    expect(off.filter((c) => c.status === 'fail').map((c) => c.name)).to.deep.equal([
      'hooks enabled',
      'project trusted',
      'hook reviewed and trusted in Codex',
    ]);
    expect(off[1]!.detail).to.contain('trust_level = "untrusted"');
    const user = await codexHookInstaller.activation!(project, { scope: 'user', env });
    expect(user.map((c) => c.name)).to.not.include('project trusted');
  });
});
