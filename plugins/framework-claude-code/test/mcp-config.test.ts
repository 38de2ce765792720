import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { claudeMcpRegistrar } from '../src/index.js';

const SERVER = { command: '/usr/bin/node', args: ['/opt/agentgov/bin/agentgov.js', 'serve', '--repo', '/work/app'] };

describe('claude-code MCP registration', () => {
  it('adds the agentgov server to .mcp.json, keeping every other key and server; a second run changes nothing', async () => {
    const project = makeTempDir();
    const file = join(project, '.mcp.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ theme: 'dark', mcpServers: { docs: { command: 'docs-mcp', args: [] } } }));
    expect(await claudeMcpRegistrar.register(project, SERVER, { scope: 'project', env: {} })).to.deep.equal({
      changed: true,
      configFile: file,
    });
    const written = JSON.parse(readFileSync(file, 'utf8')) as {
      theme: string;
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    expect(written.theme).to.equal('dark');
    expect(written.mcpServers['docs']).to.deep.equal({ command: 'docs-mcp', args: [] });
    expect(written.mcpServers['agentgov']).to.deep.include(SERVER);
    const text = readFileSync(file, 'utf8');
    expect(await claudeMcpRegistrar.register(project, SERVER, { scope: 'project', env: {} })).to.deep.equal({
      changed: false,
      configFile: file,
    });
    expect(readFileSync(file, 'utf8')).to.equal(text);
  });

  it('writes the user scope file', async () => {
    const U = makeTempDir();
    const result = await claudeMcpRegistrar.register('/unused', SERVER, {
      scope: 'user',
      env: { CLAUDE_CONFIG_DIR: U },
    });
    expect(result.configFile).to.equal(`${U}/.claude.json`);
    expect(
      (JSON.parse(readFileSync(result.configFile, 'utf8')) as { mcpServers: Record<string, unknown> }).mcpServers[
        'agentgov'
      ],
    ).to.deep.include(SERVER);
  });

  it('refuses a file that is not valid JSON, and leaves it untouched', async () => {
    const project = makeTempDir();
    const file = join(project, '.mcp.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '{ "mcpServers": { ');
    let error: unknown;
    try {
      await claudeMcpRegistrar.register(project, SERVER, { scope: 'project', env: {} });
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string }).code).to.equal('E_SETTINGS_INVALID');
    expect(readFileSync(file, 'utf8')).to.equal('{ "mcpServers": { ');
  });
});
