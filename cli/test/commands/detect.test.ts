import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { runCli } from '../support/cli-process.js';

describe('agentgov detect', function () {
  this.timeout(60000);

  it('finds agentx-code when $AGENTX_HOME has projects/: table and JSON', async () => {
    const home = makeTempDir();
    const agentx = join(makeTempDir(), 'custom-agentx');
    mkdirSync(join(agentx, 'projects'), { recursive: true });
    const env = isolatedEnv(home, { AGENTX_HOME: agentx });
    const json = await runCli(['detect', '--json-output'], { env });
    expect(json.code, json.stderr).to.equal(0);
    expect(JSON.parse(json.stdout)).to.deep.equal([
      { name: 'agentx-code', path: agentx, adapter: 'agentx-code', ingestion_mode: 'jsonl-tail' },
    ]);
    const table = await runCli(['detect'], { env });
    expect(table.code).to.equal(0);
    const [header, , row] = table.stdout.split('\n');
    expect(header?.split(/\s{2,}/)).to.deep.equal(['NAME', 'PATH', 'ADAPTER', 'INGESTION MODE']);
    expect(row?.split(/\s{2,}/)).to.deep.equal(['agentx-code', agentx, 'agentx-code', 'jsonl-tail']);
  });

  it('reports nothing when it is not installed: an empty array, and a sentence naming what was checked', async () => {
    const env = isolatedEnv(makeTempDir());
    const json = await runCli(['detect', '--json-output', '--frameworks', 'agentx-code'], { env });
    expect(json.code).to.equal(0);
    expect(JSON.parse(json.stdout)).to.deep.equal([]);
    const table = await runCli(['detect'], { env });
    expect(table.stdout).to.equal(
      'no supported framework detected (checked: agentx-code, claude-code, codex, copilot-cli, cursor, gemini-cli)\n',
    );
  });

  it('an unknown --frameworks name is a usage error listing the known ones', async () => {
    const result = await runCli(['detect', '--frameworks', 'agentx-code,windsurf'], {
      env: isolatedEnv(makeTempDir()),
    });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.contain(
      'unknown framework(s): windsurf; known frameworks: agentx-code, claude-code, codex, copilot-cli, cursor, gemini-cli',
    );
  });
});
