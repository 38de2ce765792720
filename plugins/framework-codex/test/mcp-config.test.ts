import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { parse } from 'smol-toml';
import { codexMcpRegistrar } from '../src/index.js';

const SERVER = { command: '/usr/bin/node', args: ['/opt/agentgov/bin/agentgov.js', 'serve', '--repo', '/work/api'] };

describe('codex MCP registration (config.toml [mcp_servers])', () => {
  it('appends [mcp_servers.agentgov] to the project config, keeping comments and other tables; a second run changes nothing', async () => {
    const project = makeTempDir();
    mkdirSync(join(project, '.codex'));
    const file = join(project, '.codex', 'config.toml');
    const before =
      '# my settings\nmodel = "gpt-5-codex"\n\n[mcp_servers.docs]\ncommand = "docs-mcp" # local docs\nargs = []\n';
    writeFileSync(file, before);
    expect(await codexMcpRegistrar.register(project, SERVER, { scope: 'project', env: {} })).to.deep.equal({
      changed: true,
      configFile: file,
    });
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(before)).to.equal(true);
    expect(parse(text)).to.deep.equal({
      model: 'gpt-5-codex',
      mcp_servers: { docs: { command: 'docs-mcp', args: [] }, agentgov: { ...SERVER, required: true } },
    });
    expect(await codexMcpRegistrar.register(project, SERVER, { scope: 'project', env: {} })).to.deep.equal({
      changed: false,
      configFile: file,
    });
    expect(readFileSync(file, 'utf8')).to.equal(text);
  });

  it('updates an older agentgov table in place and leaves the tables after it alone', async () => {
    const home = makeTempDir();
    const file = join(home, 'config.toml');
    writeFileSync(
      file,
      '[mcp_servers.agentgov]\ncommand = "/old/node"\nargs = ["serve"]\n\n[profiles.fast]\nmodel = "o4-mini"\n',
    );
    expect(
      (await codexMcpRegistrar.register('/unused', SERVER, { scope: 'user', env: { CODEX_HOME: home } })).changed,
    ).to.equal(true);
    expect(parse(readFileSync(file, 'utf8'))).to.deep.equal({
      mcp_servers: { agentgov: { ...SERVER, required: true } },
      profiles: { fast: { model: 'o4-mini' } },
    });
  });

  it('writes the env agentgov needs inline, replacing an older agentgov env subtable and keeping the tables after it', async () => {
    const home = makeTempDir();
    const file = join(home, 'config.toml');
    writeFileSync(
      file,
      '[mcp_servers.agentgov]\ncommand = "/old/node"\nargs = ["serve"]\n\n[mcp_servers.agentgov.env]\nAGENTGOV_HOME = "/old"\n\n[profiles.fast]\nmodel = "o4-mini"\n',
    );
    const server = { ...SERVER, env: { AGENTGOV_HOME: '/home/dev/agentgov home' } };
    expect(
      (await codexMcpRegistrar.register('/unused', server, { scope: 'user', env: { CODEX_HOME: home } })).changed,
    ).to.equal(true);
    expect(parse(readFileSync(file, 'utf8'))).to.deep.equal({
      mcp_servers: { agentgov: { ...server, required: true } },
      profiles: { fast: { model: 'o4-mini' } },
    });
    expect(
      (await codexMcpRegistrar.register('/unused', server, { scope: 'user', env: { CODEX_HOME: home } })).changed,
    ).to.equal(false);
  });

  it('creates the user config under $CODEX_HOME', async () => {
    const home = join(makeTempDir(), 'codex');
    const result = await codexMcpRegistrar.register('/unused', SERVER, { scope: 'user', env: { CODEX_HOME: home } });
    expect(result.configFile).to.equal(join(home, 'config.toml'));
    expect(parse(readFileSync(result.configFile, 'utf8'))).to.deep.equal({
      mcp_servers: { agentgov: { ...SERVER, required: true } },
    });
  });

  it('refuses a config.toml that does not parse, and leaves it untouched', async () => {
    const home = makeTempDir();
    const file = join(home, 'config.toml');
    writeFileSync(file, 'model = "gpt-5\n[broken');
    let error: unknown;
    try {
      await codexMcpRegistrar.register('/unused', SERVER, { scope: 'user', env: { CODEX_HOME: home } });
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string }).code).to.equal('E_SETTINGS_INVALID');
    expect(readFileSync(file, 'utf8')).to.equal('model = "gpt-5\n[broken');
  });
});
