import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GovernanceRecord } from '@agentgov/core';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { createJsonlSink, expandPathTemplate } from '../src/index.js';

const record = (session: string, n: number): GovernanceRecord => ({
  event: {
    id: `agentx-code:${session}:t${n}`,
    framework: 'agentx-code',
    session_id: session,
    timestamp: '2026-11-20T10:00:00.000Z',
    cwd: '/w',
    tool_name: 'Bash',
    canonical_tool: 'shell',
    arguments: { command: `echo ${n}` },
  },
  assessment: { score: 0, level: 'low', action: 'allow', reason_code: 'no_risk_detected', evidence: { rules: [] } },
});

describe('jsonl sink', () => {
  it('appends one JSON record per event to the file its {session_id} template names, privately', async () => {
    const dir = makeTempDir();
    const sink = createJsonlSink({ path: 'out/{session_id}.jsonl', baseDir: dir });
    await sink.write(record('s-1', 1));
    await sink.write(record('s-2', 2));
    await sink.write(record('s-1', 3));
    await sink.close?.();
    const lines = readFileSync(join(dir, 'out', 's-1.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).to.deep.equal([
      { version: 1, ...record('s-1', 1) },
      { version: 1, ...record('s-1', 3) },
    ]);
    expect(
      readFileSync(join(dir, 'out', 's-2.jsonl'), 'utf8')
        .trimEnd()
        .split('\n'),
    ).to.have.length(1);
    expect(statSync(join(dir, 'out', 's-1.jsonl')).mode & 0o777).to.equal(0o600);
    expect(statSync(join(dir, 'out')).mode & 0o777).to.equal(0o700);
  });

  it('expands a leading ~/ to the home directory', async () => {
    const sink = createJsonlSink({ path: '~/recs/{session_id}.jsonl', baseDir: '/nowhere' });
    await sink.write(record('s-9', 1));
    await sink.close?.();
    expect(readFileSync(join(process.env['HOME'] as string, 'recs', 's-9.jsonl'), 'utf8')).to.contain('"s-9"');
  });

  it('never lets a session id climb out of the directory', () => {
    expect(expandPathTemplate('/d/{session_id}.jsonl', record('../../etc/passwd', 1))).to.equal(
      '/d/__.._etc_passwd.jsonl',
    );
    expect(expandPathTemplate('/d/{framework}-{session_id}.jsonl', record('a b', 1))).to.equal(
      '/d/agentx-code-a_b.jsonl',
    );
  });

  it('a write to an unwritable place rejects (the pipeline counts it) instead of throwing synchronously', async () => {
    const dir = makeTempDir();
    writeFileSync(join(dir, 'a-file'), '');
    const sink = createJsonlSink({ path: 'a-file/{session_id}.jsonl', baseDir: dir });
    let failed = false;
    await Promise.resolve()
      .then(() => sink.write(record('s', 1)))
      .catch(() => (failed = true));
    expect(failed).to.equal(true);
  });
});
