import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPluginHost, loadConfig, silentLogger, type ToolCallEvent } from '@agentgov/core';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { CLI_PACKAGE_DIR } from '../../src/package-info.js';
import { createScoreAssessor } from '../../src/score-api/assessor.js';

const RAISING_PLUGIN = `
export default {
  name: 'test-raise',
  apply(hooks) {
    hooks.assess.tapPromise('test-raise', async (a) => (a.score < 30 ? { ...a, score: 30, level: 'medium', action: 'warn', reason_code: 'raised_by_test' } : a));
  },
};
`;

const event = (command: string): ToolCallEvent => ({
  id: 'e',
  framework: 'score-api',
  session_id: 's',
  timestamp: '2026-01-01T00:00:00.000Z',
  cwd: '/home/u/proj',
  tool_name: 'Bash',
  canonical_tool: 'shell',
  arguments: { command },
});

async function assessorWith(plugins: string[]) {
  const dir = makeTempDir();
  writeFileSync(join(dir, 'test-plugin.mjs'), RAISING_PLUGIN);
  writeFileSync(
    join(dir, 'agentgov.yaml'),
    plugins.length > 0 ? ['plugins:', ...plugins.map((p) => `  - ${p}`), ''].join('\n') : 'plugins: []\n',
  );
  const loaded = loadConfig({ configPath: join(dir, 'agentgov.yaml') });
  const host = await createPluginHost({
    loaded,
    bundled: [],
    resolveFrom: [CLI_PACKAGE_DIR],
    host: 'cli',
    logger: silentLogger,
  });
  return createScoreAssessor(host, loaded, silentLogger);
}

describe('score-api assessor: the engine plus the assess waterfall', function () {
  it('answers with the engine’s assessment when no plugin taps assess', async function () {
    const assessor = await assessorWith([]);
    expect(await assessor.assess(event('git status'))).to.include({
      score: 0,
      action: 'allow',
      reason_code: 'no_risk_detected',
    });
    expect((await assessor.assess(event('rm -rf / --no-preserve-root'))).action).to.equal('deny');
  });

  it('runs the plugins’ assess taps when there are some', async function () {
    const assessor = await assessorWith(['./test-plugin.mjs']);
    expect(await assessor.assess(event('git status'))).to.include({ score: 30, reason_code: 'raised_by_test' });
  });
});
