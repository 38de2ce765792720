import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { geminiHookInstaller } from '../src/index.js';

const GATE = '/usr/bin/node /opt/agentgov/bin/agentgov.js gate --stdin --format gemini-cli';

/** A fresh Gemini CLI home and project; the environment the agent would run with. */
function setup(): { project: string; home: string; env: NodeJS.ProcessEnv } {
  const home = makeTempDir();
  const project = makeTempDir();
  return { project, home, env: { HOME: home } };
}

const statusOf = async (project: string, scope: string, env: NodeJS.ProcessEnv) =>
  Object.fromEntries((await geminiHookInstaller.activation!(project, { scope, env })).map((c) => [c.name, c.status]));

describe('gemini-cli hook installer', () => {
  it('writes the user file by default (read in every mode) and the project file on request, from the given environment', async () => {
    expect(geminiHookInstaller.scopes.join(', ')).to.equal('user, project');
    const { project, home, env } = setup();
    const first = await geminiHookInstaller.install(project, GATE, { env });
    expect(first).to.deep.equal({ changed: true, settingsFile: join(home, '.gemini/settings.json') });
    expect(await geminiHookInstaller.installed(project, { env })).to.deep.equal({
      settingsFile: join(home, '.gemini/settings.json'),
      commands: [GATE],
    });
    expect((await geminiHookInstaller.install(project, GATE, { env })).changed).to.equal(false);
    const custom = makeTempDir();
    const result = await geminiHookInstaller.install(project, GATE, {
      scope: 'user',
      env: { HOME: home, GEMINI_CLI_HOME: custom },
    });
    expect(result.settingsFile).to.equal(join(custom, '.gemini/settings.json'));
    expect((await geminiHookInstaller.install(project, GATE, { scope: 'project', env })).settingsFile).to.equal(
      join(project, '.gemini/settings.json'),
    );
    let error: unknown;
    try {
      await geminiHookInstaller.install(project, GATE, { scope: 'team', env });
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string }).code).to.equal('E_INVALID_ARGUMENT');
  });

  it('project scope: inert until the folder is trusted by trustedFolders.json or GEMINI_CLI_TRUST_WORKSPACE=true', async () => {
    const { project, home, env } = setup();
    await geminiHookInstaller.install(project, GATE, { scope: 'project', env });
    const untrusted = await geminiHookInstaller.activation!(project, { scope: 'project', env });
    const loaded = untrusted.find((c) => c.name === 'project settings loaded');
    expect(loaded?.status).to.equal('fail');
    expect(loaded?.detail).to.include('--skip-trust');
    expect(loaded?.remedy).to.include(`"${project}": "TRUST_FOLDER"`).and.include('--scope user');
    expect(await statusOf(project, 'project', { ...env, GEMINI_CLI_TRUST_WORKSPACE: 'true' })).to.deep.include({
      'workspace trusted': 'ok',
    });
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(
      join(home, '.gemini/trustedFolders.json'),
      JSON.stringify({ [join(project, 'sub', '..')]: 'TRUST_FOLDER' }),
    );
    expect(await statusOf(project, 'project', env)).to.deep.equal({ 'hooks enabled': 'ok', 'workspace trusted': 'ok' });
    // A longer rule wins, as in Gemini CLI: a distrusted project under a trusted parent runs no hook.
    const parent = join(project, '..');
    writeFileSync(
      join(home, '.gemini/trustedFolders.json'),
      JSON.stringify({ [parent]: 'TRUST_FOLDER', [project]: 'DO_NOT_TRUST' }),
    );
    expect(await statusOf(project, 'project', env)).to.deep.include({ 'workspace trusted': 'fail' });
    writeFileSync(join(home, '.gemini/trustedFolders.json'), JSON.stringify({ [join(project, 'x')]: 'TRUST_PARENT' }));
    expect(await statusOf(project, 'project', env)).to.deep.include({ 'workspace trusted': 'ok' });
  });

  it('user scope: ok without a trust rule, fails in a distrusted folder, with hooks switched off, or a broken trust file', async () => {
    const { project, home, env } = setup();
    await geminiHookInstaller.install(project, GATE, { env });
    expect(await statusOf(project, 'user', env)).to.deep.equal({ 'hooks enabled': 'ok', 'workspace trusted': 'ok' });
    expect(await statusOf(project, 'user', { ...env, GEMINI_CLI_TRUST_WORKSPACE: 'false' })).to.deep.include({
      'workspace trusted': 'fail',
    });
    const trustFile = join(makeTempDir(), 'trusted.json');
    writeFileSync(trustFile, '{ nope');
    expect(await statusOf(project, 'user', { ...env, GEMINI_CLI_TRUSTED_FOLDERS_PATH: trustFile })).to.deep.include({
      'workspace trusted': 'unknown',
    });
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(
      join(home, '.gemini/settings.json'),
      JSON.stringify({ hooksConfig: { disabled: ['agentgov'] }, hooks: {} }),
    );
    const checks = await geminiHookInstaller.activation!(project, { scope: 'user', env });
    expect(checks.find((c) => c.name === 'hooks enabled')).to.deep.include({
      status: 'fail',
      remedy: `remove 'agentgov' from hooksConfig.disabled in ${join(home, '.gemini/settings.json')}`,
    });
  });
});
