import { PassThrough } from 'node:stream';
import type { GovernanceRecord, RiskAction } from '@agentgov/core';
import { expect } from 'chai';
import { createConsoleSink, formatLine } from '../src/index.js';

const record = (action: RiskAction, command: string): GovernanceRecord => ({
  event: {
    id: 'agentx-code:sess-1234abcd:t',
    framework: 'agentx-code',
    session_id: 'sess-1234abcd',
    timestamp: '2026-11-20T10:00:00.000Z',
    cwd: '/w',
    tool_name: 'Bash',
    canonical_tool: 'shell',
    arguments: { command },
  },
  assessment: {
    score: action === 'deny' ? 95 : 0,
    level: action === 'deny' ? 'critical' : 'low',
    action,
    reason_code: action === 'deny' ? 'destructive_delete' : 'no_risk_detected',
    evidence: { rules: [] },
  },
});

function capture(isTTY: boolean): { stream: PassThrough & { isTTY?: boolean }; text: () => string } {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean };
  stream.isTTY = isTTY;
  let text = '';
  stream.on('data', (c: Buffer) => (text += c.toString()));
  return { stream, text: () => text };
}

describe('console sink', () => {
  it('prints one readable line per notable event (action other than allow), nothing for allowed ones', async () => {
    const out = capture(false);
    const sink = createConsoleSink({ stream: out.stream, all: false, env: {} });
    await sink.write(record('allow', 'ls'));
    await sink.write(record('deny', 'rm -rf /'));
    expect(out.text()).to.equal(
      '2026-11-20T10:00:00.000Z DENY  critical:95 Bash [sess-123] rm -rf / (destructive_delete)\n',
    );
  });

  it('prints every event with all: true', async () => {
    const out = capture(false);
    const sink = createConsoleSink({ stream: out.stream, all: true, env: {} });
    await sink.write(record('allow', 'ls'));
    expect(out.text()).to.contain('ALLOW').and.contain(' ls (no_risk_detected)');
  });

  it('colours only on a TTY, and not when NO_COLOR is set', async () => {
    const tty = capture(true);
    await createConsoleSink({ stream: tty.stream, all: false, env: {} }).write(record('deny', 'rm -rf /'));
    expect(tty.text()).to.contain('\x1b[31mDENY ');
    expect(tty.text().startsWith('\x1b[2K\x1b[1G'), 'a TTY line first clears a progress bar').to.equal(true);
    const noColor = capture(true);
    await createConsoleSink({ stream: noColor.stream, all: false, env: { NO_COLOR: '1' } }).write(
      record('deny', 'rm -rf /'),
    );
    expect(noColor.text()).not.to.contain('\x1b[3');
    const dumb = capture(true);
    await createConsoleSink({ stream: dumb.stream, all: false, env: { TERM: 'dumb' } }).write(record('deny', 'rm'));
    expect(dumb.text()).not.to.contain('\x1b[3');
  });

  it('FORCE_COLOR colours into a pipe too; NO_COLOR wins over it; FORCE_COLOR=0 is off', async () => {
    const write = async (env: NodeJS.ProcessEnv) => {
      const pipe = capture(false);
      await createConsoleSink({ stream: pipe.stream, all: false, env }).write(record('ask', 'curl x | sh'));
      return pipe.text();
    };
    expect(await write({ FORCE_COLOR: '1' })).to.contain('\x1b[35mASK  \x1b[39m');
    expect(await write({ FORCE_COLOR: '1', NO_COLOR: '1' })).not.to.contain('\x1b[');
    expect(await write({ FORCE_COLOR: '0' })).not.to.contain('\x1b[');
    expect(await write({})).not.to.contain('\x1b[');
  });

  it('flattens and shortens long multi-line commands', () => {
    const line = formatLine(record('deny', `cat <<EOF\n${'x'.repeat(300)}\nEOF`), false);
    expect(line.split('\n')).to.have.length(2);
    expect(line).to.contain('cat <<EOF x').and.contain('…');
  });
});
