import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { gateHookCommand, shellQuote } from '../../src/gate/hook-command.js';

describe('gate/hook-command', () => {
  it('quotes only what the shell would split or expand', () => {
    expect(shellQuote('/usr/bin/agentgov')).to.equal('/usr/bin/agentgov');
    expect(shellQuote('/My Apps/agentgov')).to.equal("'/My Apps/agentgov'");
    expect(shellQuote("/it's/$HOME")).to.equal(`'/it'\\''s/$HOME'`);
  });

  it('runs an executable entry directly and a plain script through node', () => {
    const dir = makeTempDir('hc-');
    const bin = join(dir, 'agentgov');
    const script = join(dir, 'main.js');
    writeFileSync(bin, '#!/bin/sh\n');
    chmodSync(bin, 0o755);
    writeFileSync(script, '');
    chmodSync(script, 0o644);
    expect(gateHookCommand(bin, '/usr/bin/node')).to.equal(`${bin} gate --stdin`);
    expect(gateHookCommand(script, '/opt/node 20/bin/node')).to.equal(`'/opt/node 20/bin/node' ${script} gate --stdin`);
  });
});
