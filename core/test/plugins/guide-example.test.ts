import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPluginHost, loadConfig, silentLogger, type GovernanceRecord } from '../../src/index.js';
import { makeTempDir, writeTree } from '../../src/testing/index.js';

// The worked example of docs/plugins.md, tested the way the guide tells plugin authors to test.
const example = fileURLToPath(new URL('../../../../docs/examples/notable-sink', import.meta.url));

const record = (level: 'low' | 'high', command: string): GovernanceRecord => ({
  event: {
    id: `x:${command}`,
    framework: 'agentx-code',
    session_id: 's',
    timestamp: '2026-11-22T10:00:00.000Z',
    cwd: '/p',
    tool_name: 'Bash',
    canonical_tool: 'shell',
    arguments: { command },
  },
  assessment: {
    score: level === 'high' ? 60 : 0,
    level,
    action: level === 'high' ? 'ask' : 'allow',
    reason_code: level === 'high' ? 'destructive_delete' : 'no_risk_detected',
    evidence: { rules: [] },
  },
});

describe('docs/plugins.md worked example (notable-sink)', () => {
  it('loads from a local folder, registers its sink, and writes only notable calls', async () => {
    const dir = makeTempDir('agentgov-guide-');
    writeTree(dir, { 'agentgov.yaml': `plugins:\n  - plugin: ${example}\n    options:\n      file: notable.log\n` });
    const loaded = loadConfig({ cwd: dir, env: { HOME: dir } });
    const host = await createPluginHost({ loaded, bundled: [], resolveFrom: [], host: 'cli', logger: silentLogger });
    expect(host.plugins.map((p) => [p.name, p.version, p.hooks])).to.deep.equal([['notable-sink', '1.0.0', ['sinks']]]);
    const sink = host.registries.sinks.get('notable-sink');
    await sink?.write(record('low', 'ls'));
    await sink?.write(record('high', 'rm -rf build'));
    expect(readFileSync(join(dir, 'notable.log'), 'utf8')).to.equal(
      '2026-11-22T10:00:00.000Z high destructive_delete Bash {"command":"rm -rf build"}\n',
    );
  });

  it('rejects options that miss the required file', async () => {
    const dir = makeTempDir('agentgov-guide-');
    writeTree(dir, { 'agentgov.yaml': `plugins:\n  - ${example}\n` });
    const loaded = loadConfig({ cwd: dir, env: { HOME: dir } });
    const failure = await createPluginHost({
      loaded,
      bundled: [],
      resolveFrom: [],
      host: 'cli',
      logger: silentLogger,
    }).catch((e: Error) => e);
    expect((failure as Error).message).to.contain("error at plugins[0]: must have required property 'file'");
  });
});
