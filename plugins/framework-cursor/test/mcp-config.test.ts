import { join } from 'node:path';
import { tryRegistrar } from '@agentgov/core/testing';
import { expect } from 'chai';
import { cursorMcpRegistrar } from '../src/index.js';

const SERVER = { command: '/usr/bin/node', args: ['/opt/agentgov/bin/agentgov.js', 'serve', '--repo', '/work/app'] };

describe('cursor MCP registration', () => {
  it('writes mcpServers.agentgov to <project>/.cursor/mcp.json and ~/.cursor/mcp.json, once; refuses a broken file', async () => {
    const trial = await tryRegistrar(cursorMcpRegistrar, SERVER, (home) => ({ HOME: home }));
    expect(trial.projectScope).to.deep.equal({
      configFile: join(trial.project, '.cursor/mcp.json'),
      changed: true,
      changedAgain: false,
      entry: SERVER,
    });
    expect(trial.userScope).to.deep.include({ configFile: join(trial.home, '.cursor/mcp.json'), entry: SERVER });
    expect(trial.invalid).to.deep.equal({ code: 'E_SETTINGS_INVALID', untouched: true });
  });
});
