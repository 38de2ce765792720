import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { copilotHookInstaller, copilotMcpRegistrar } from '../src/index.js';

const GATE = '/usr/bin/node /opt/agentgov/bin/agentgov.js gate --stdin --format copilot-cli';

const statusOf = async (project: string, scope: string, env: NodeJS.ProcessEnv) =>
  Object.fromEntries((await copilotHookInstaller.activation!(project, { scope, env })).map((c) => [c.name, c.status]));

describe('copilot-cli hook installer', () => {
  it('writes the user file by default (loaded with -p too) and the project file on request, from the given environment', async () => {
    expect(copilotHookInstaller.scopes.join(', ')).to.equal('user, project');
    const project = makeTempDir();
    const home = makeTempDir();
    const env = { HOME: home };
    const first = await copilotHookInstaller.install(project, GATE, { env });
    expect(first).to.deep.equal({ changed: true, settingsFile: join(home, '.copilot/hooks/agentgov.json') });
    expect(await copilotHookInstaller.installed(project, { env })).to.deep.equal({
      settingsFile: join(home, '.copilot/hooks/agentgov.json'),
      commands: [GATE],
    });
    expect((await copilotHookInstaller.install(project, GATE, { env })).changed).to.equal(false);
    const custom = makeTempDir();
    expect(
      (await copilotHookInstaller.install(project, GATE, { env: { HOME: home, COPILOT_HOME: custom } })).settingsFile,
    ).to.equal(join(custom, 'hooks/agentgov.json'));
    expect((await copilotHookInstaller.install(project, GATE, { scope: 'project', env })).settingsFile).to.equal(
      join(project, '.github/hooks/agentgov.json'),
    );
    let error: unknown;
    try {
      await copilotHookInstaller.install(project, GATE, { scope: 'team', env });
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string }).code).to.equal('E_INVALID_ARGUMENT');
  });

  it('project scope: inert in -p until the folder (or a parent) is trusted in config.json or the opt-in variable is set', async () => {
    const project = makeTempDir();
    const home = makeTempDir();
    const env = { HOME: home };
    const checks = await copilotHookInstaller.activation!(project, { scope: 'project', env });
    const repo = checks.find((c) => c.name === 'repo hooks loaded with -p');
    expect(repo?.status).to.equal('fail');
    expect(repo?.remedy).to.include('GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true').and.include('--scope user');
    expect(
      await statusOf(project, 'project', { ...env, GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS: 'true' }),
    ).to.deep.include({ 'repo hooks loaded with -p': 'ok' });
    mkdirSync(join(home, '.copilot'));
    // As Copilot CLI writes it: comment lines first.
    const config = `// User settings belong in settings.json.\n// This file is managed automatically.\n${JSON.stringify({ trustedFolders: [join(project, '..')] })}\n`;
    writeFileSync(join(home, '.copilot/config.json'), config);
    expect(await statusOf(project, 'project', env)).to.deep.equal({
      'hooks enabled': 'ok',
      'repo hooks loaded with -p': 'ok',
    });
    writeFileSync(join(home, '.copilot/config.json'), '{ "trustedFolders": [');
    expect(await statusOf(project, 'project', env)).to.deep.include({ 'repo hooks loaded with -p': 'unknown' });
  });

  it('user scope: ok in every mode unless disableAllHooks is set', async () => {
    const project = makeTempDir();
    const home = makeTempDir();
    expect(await statusOf(project, 'user', { HOME: home })).to.deep.equal({
      'hooks enabled': 'ok',
      'hook file read in every mode': 'ok',
    });
    mkdirSync(join(home, '.copilot'));
    writeFileSync(join(home, '.copilot/settings.json'), JSON.stringify({ disableAllHooks: true }));
    expect(await statusOf(project, 'user', { HOME: home })).to.deep.include({ 'hooks enabled': 'fail' });
  });
});

describe('copilot-cli MCP registration', () => {
  it('adds agentgov to $COPILOT_HOME/mcp-config.json by default with AGENTGOV_HOME pinned, keeping other servers; idempotent', async () => {
    expect(copilotMcpRegistrar.scopes.join(', ')).to.equal('user, project');
    const copilot = makeTempDir();
    const file = join(copilot, 'mcp-config.json');
    writeFileSync(
      file,
      JSON.stringify({ mcpServers: { docs: { type: 'local', command: 'docs-mcp', args: [], tools: ['*'] } } }),
    );
    const server = { command: '/usr/bin/node', args: ['/opt/agentgov/bin/agentgov.js', 'serve'] };
    const env = { COPILOT_HOME: copilot, AGENTGOV_HOME: '/srv/agentgov' };
    expect(await copilotMcpRegistrar.register('/unused', server, { scope: 'user', env })).to.deep.equal({
      changed: true,
      configFile: file,
    });
    const written = JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, unknown> };
    expect(written.mcpServers['docs']).to.deep.include({ command: 'docs-mcp' });
    expect(written.mcpServers['agentgov']).to.deep.equal({
      type: 'local',
      ...server,
      env: { AGENTGOV_HOME: '/srv/agentgov' },
      tools: ['*'],
    });
    expect((await copilotMcpRegistrar.register('/unused', server, { scope: 'user', env })).changed).to.equal(false);
    const project = makeTempDir();
    expect((await copilotMcpRegistrar.register(project, server, { scope: 'project', env })).configFile).to.equal(
      join(project, '.github/mcp.json'),
    );
  });
});
