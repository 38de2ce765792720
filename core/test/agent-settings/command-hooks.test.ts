import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import {
  flatGateCommands,
  installFlatHook,
  installMatcherGroupHook,
  matcherGroupGateCommands,
} from '../../src/index.js';
import { makeTempDir } from '../../src/testing/index.js';

const GATE = '/usr/bin/node /opt/agentgov/bin/agentgov.js gate --stdin --format codex';
const OLD = '/home/u/.npm/bin/agentgov gate --stdin';

describe('agent-settings/command-hooks', () => {
  it('adds a matcher group, keeps other settings and hooks, is idempotent, and repoints an earlier agentgov command', () => {
    const file = join(makeTempDir(), 'hooks.json');
    writeFileSync(
      file,
      JSON.stringify({
        model: 'x',
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                { type: 'command', command: 'lint.sh' },
                { type: 'command', command: OLD },
              ],
            },
          ],
          Stop: [],
        },
      }),
    );
    expect(installMatcherGroupHook(file, { event: 'PreToolUse' }, GATE)).to.deep.equal({ changed: true });
    const after = JSON.parse(readFileSync(file, 'utf8')) as {
      model: string;
      hooks: { PreToolUse: { hooks: { command: string }[] }[]; Stop: unknown[] };
    };
    expect(after.model).to.equal('x');
    expect(after.hooks.PreToolUse[0]!.hooks.map((h) => h.command)).to.deep.equal(['lint.sh', GATE]);
    expect(matcherGroupGateCommands(file, 'PreToolUse')).to.deep.equal([GATE]);
    const text = readFileSync(file, 'utf8');
    expect(installMatcherGroupHook(file, { event: 'PreToolUse' }, GATE)).to.deep.equal({ changed: false });
    expect(readFileSync(file, 'utf8')).to.equal(text);
  });

  it('writes a new group with the matcher and extra fields asked for', () => {
    const file = join(makeTempDir(), 'settings.json');
    installMatcherGroupHook(
      file,
      { event: 'BeforeTool', matcher: '.*', extra: { name: 'agentgov', timeout: 30000 } },
      GATE,
    );
    expect(JSON.parse(readFileSync(file, 'utf8'))).to.deep.equal({
      hooks: {
        BeforeTool: [{ matcher: '.*', hooks: [{ type: 'command', command: GATE, name: 'agentgov', timeout: 30000 }] }],
      },
    });
  });

  it('refuses hooks of an unexpected type and leaves the file untouched', () => {
    const file = join(makeTempDir(), 'settings.json');
    writeFileSync(file, '{"hooks":{"PreToolUse":{}}}');
    expect(() => installMatcherGroupHook(file, { event: 'PreToolUse' }, GATE)).to.throw(
      /hooks.PreToolUse" must be an array/,
    );
    expect(readFileSync(file, 'utf8')).to.equal('{"hooks":{"PreToolUse":{}}}');
  });

  it('adds flat entries to every event (version 1), under the command key asked for, idempotently', () => {
    const file = join(makeTempDir(), 'hooks.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        hooks: { afterFileEdit: [{ command: 'fmt.sh' }], beforeShellExecution: [{ command: OLD }] },
      }),
    );
    expect(installFlatHook(file, { events: ['beforeShellExecution', 'beforeReadFile'] }, GATE)).to.deep.equal({
      changed: true,
    });
    expect(JSON.parse(readFileSync(file, 'utf8'))).to.deep.equal({
      version: 1,
      hooks: {
        afterFileEdit: [{ command: 'fmt.sh' }],
        beforeShellExecution: [{ command: GATE }],
        beforeReadFile: [{ command: GATE }],
      },
    });
    expect(installFlatHook(file, { events: ['beforeShellExecution', 'beforeReadFile'] }, GATE)).to.deep.equal({
      changed: false,
    });
    const copilot = join(makeTempDir(), 'agentgov.json');
    installFlatHook(
      copilot,
      { events: ['preToolUse'], commandKey: 'bash', extra: { type: 'command', timeoutSec: 30 } },
      GATE,
    );
    expect(JSON.parse(readFileSync(copilot, 'utf8'))).to.deep.equal({
      version: 1,
      hooks: { preToolUse: [{ type: 'command', timeoutSec: 30, bash: GATE }] },
    });
    expect(flatGateCommands(copilot, ['preToolUse'], 'bash')).to.deep.equal([GATE]);
  });
});
