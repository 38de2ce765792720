import { join } from 'node:path';
import { tryRegistrar } from '@agentgov/core/testing';
import { expect } from 'chai';
import { geminiMcpRegistrar } from '../src/index.js';

const SERVER = { command: '/usr/bin/node', args: ['/opt/agentgov/bin/agentgov.js', 'serve', '--repo', '/work/app'] };

describe('gemini-cli MCP registration', () => {
  it('writes mcpServers.agentgov to .gemini/settings.json of the project and of GEMINI_CLI_HOME, pinning AGENTGOV_HOME', async () => {
    const trial = await tryRegistrar(geminiMcpRegistrar, SERVER, (home) => ({
      GEMINI_CLI_HOME: home,
      AGENTGOV_HOME: join(home, 'agentgov'),
    }));
    const entry = { ...SERVER, env: { AGENTGOV_HOME: join(trial.home, 'agentgov') } };
    expect([trial.projectScope.configFile, trial.userScope.configFile]).to.deep.equal([
      join(trial.project, '.gemini/settings.json'),
      join(trial.home, '.gemini/settings.json'),
    ]);
    expect([trial.projectScope.entry, trial.userScope.entry]).to.deep.equal([entry, entry]);
    expect([trial.userScope.changed, trial.userScope.changedAgain]).to.deep.equal([true, false]);
    expect(trial.invalid).to.deep.equal({ code: 'E_SETTINGS_INVALID', untouched: true });
  });
});
