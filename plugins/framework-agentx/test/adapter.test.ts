import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { agentxAdapter } from '../src/index.js';
import { FIXTURE_HOME } from './transcript.test.js';

describe('agentx-code adapter', () => {
  it('is detected when $AGENTX_HOME has projects/, and not otherwise', async () => {
    const home = makeTempDir();
    expect(await agentxAdapter.detect({ AGENTX_HOME: home })).to.equal(null);
    mkdirSync(join(home, 'projects'));
    expect(await agentxAdapter.detect({ AGENTX_HOME: home })).to.deep.equal({
      name: 'agentx-code',
      path: home,
      adapter: 'agentx-code',
      ingestion_mode: 'jsonl-tail',
    });
  });

  it('defaults to ~/.agentx', async () => {
    const home = makeTempDir();
    mkdirSync(join(home, '.agentx', 'projects'), { recursive: true });
    expect((await agentxAdapter.detect({ HOME: home }))?.path).to.equal(join(home, '.agentx'));
  });

  it('lists every transcript under projects/, subagent transcripts included, sorted', async () => {
    const files = await agentxAdapter.listCaptures({ AGENTX_HOME: FIXTURE_HOME });
    expect(files.map((f) => f.slice(join(FIXTURE_HOME, 'projects').length + 1))).to.deep.equal([
      '-work-demo/sess-aaaa-1111.jsonl',
      '-work-demo/sess-bbbb-2222.jsonl',
      '-work-other/sess-cccc-3333.jsonl',
      '-work-other/sess-cccc-3333/subagents/agent-9.jsonl',
    ]);
    expect(agentxAdapter.captureRoots({ AGENTX_HOME: '/x' })).to.deep.equal(['/x/projects']);
    expect(await agentxAdapter.listCaptures({ AGENTX_HOME: makeTempDir() })).to.deep.equal([]);
  });
});
