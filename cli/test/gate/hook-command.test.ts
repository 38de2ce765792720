import { chmodSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentgovError } from '@agentgov/core';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { preToolUseGateFormat } from '@agentgov/core/gate-hook';
import { BIN_ENTRY, checkHookCommand, gateHookCommand, shellQuote } from '../../src/gate/hook-command.js';

describe('gate/hook-command', () => {
  it('quotes only what the shell would split or expand', () => {
    expect(shellQuote('/usr/bin/agentgov')).to.equal('/usr/bin/agentgov');
    expect(shellQuote('/My Apps/agentgov')).to.equal("'/My Apps/agentgov'");
    expect(shellQuote("/it's/$HOME")).to.equal(`'/it'\\''s/$HOME'`);
  });

  it('names this node and the committed bin entry by real, absolute paths, with the format', () => {
    expect(gateHookCommand('agentx-code')).to.equal(
      `${shellQuote(realpathSync(process.execPath))} ${shellQuote(realpathSync(BIN_ENTRY))} gate --stdin --format agentx-code`,
    );
  });

  it('quotes a node and an entry whose paths have spaces, and resolves symlinks', () => {
    const dir = join(makeTempDir('hc-'), 'with space');
    mkdirSync(dir);
    const entry = join(dir, 'agentgov.js');
    writeFileSync(entry, '');
    chmodSync(entry, 0o644);
    expect(gateHookCommand('x', { entry, node: process.execPath })).to.equal(
      `${shellQuote(realpathSync(process.execPath))} '${realpathSync(entry)}' gate --stdin --format x`,
    );
  });

  it('refuses a directory (X_OK passes on one; the shell cannot run it) and a missing entry', () => {
    const dir = makeTempDir('hc-dir-');
    chmodSync(dir, 0o755);
    expect(() => gateHookCommand('x', { entry: dir })).to.throw(AgentgovError, /not a regular file/);
    expect(() => gateHookCommand('x', { node: dir })).to.throw(AgentgovError, /not a regular file/);
    expect(() => gateHookCommand('x', { entry: join(dir, 'missing.js') })).to.throw(AgentgovError, /does not exist/);
  });

  it('reports the exit status of a hook that quits before reading its payload (EPIPE is no timeout)', () => {
    // A payload far larger than a pipe buffer makes the write race lose every time: the shell exits
    // 126 on a directory without reading stdin, and the check must still say "exited 126".
    const dir = makeTempDir('hc-epipe-');
    const format = { ...preToolUseGateFormat('agentx-code'), probePayload: () => ({ padding: 'x'.repeat(4 << 20) }) };
    for (let round = 0; round < 3; round += 1) {
      const check = checkHookCommand(`${dir} gate --stdin`, format, { cwd: dir });
      expect(check.ok).to.equal(false);
      expect(check.exitCode).to.equal(126);
      expect(check.message).to.contain('exited 126');
    }
  });
});
