import { join } from 'node:path';
import { tryRegistrar } from '@agentgov/core/testing';
import { expect } from 'chai';
import { claudeMcpRegistrar } from '../src/index.js';

const SERVER = { command: '/usr/bin/node', args: ['/opt/agentgov/bin/agentgov.js', 'serve', '--repo', '/work/app'] };

describe('claude-code MCP registration', () => {
  it('writes a stdio server to <project>/.mcp.json and $CLAUDE_CONFIG_DIR/.claude.json, once', async () => {
    const trial = await tryRegistrar(claudeMcpRegistrar, SERVER, (home) => ({ CLAUDE_CONFIG_DIR: home }));
    const entry = { type: 'stdio', ...SERVER };
    expect(trial).to.deep.include({
      projectScope: { configFile: join(trial.project, '.mcp.json'), changed: true, changedAgain: false, entry },
      userScope: { configFile: join(trial.home, '.claude.json'), changed: true, changedAgain: false, entry },
      invalid: { code: 'E_SETTINGS_INVALID', untouched: true },
    });
  });

  it('writes ~/.claude.json beside ~/.claude when CLAUDE_CONFIG_DIR is not set', async () => {
    const trial = await tryRegistrar(claudeMcpRegistrar, SERVER, (home) => ({ HOME: home }));
    expect(trial.userScope.configFile).to.equal(join(trial.home, '.claude.json'));
  });
});
