import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { isolatedEnv, makeTempDir, writeTree } from '@agentgov/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { gitInit, SERVICE_REPO } from '../recon/fixture-repo.js';

/** The real CLI binary (built by the root `tsc -b`). */
const MAIN = fileURLToPath(new URL('../../../../cli/dist/src/main.js', import.meta.url));

/** A third-party retriever, loaded by path from the config: it scores names equal to a task term 7.5. */
const ECHO_PLUGIN = `export default {
  name: 'retriever-echo',
  apply(hooks) {
    hooks.retrievers.tap('retriever-echo', (registry) => registry.add({
      name: 'echo',
      async retrieve(query, { index }) {
        return [...index.definitions()].filter((d) => query.terms.includes(d.name.toLowerCase())).map((d) => ({ def_uid: d.def_uid, score: 7.5, why: 'echo' }));
      },
    }));
  },
};
`;

type Raw = {
  retrievers: string[];
  candidates: { name: string; signals: Record<string, { score: number; rank: number; why?: string }> }[];
};

describe('recon_raw_signals through `agentgov serve --dev-mode` with a retriever plugin from the config', function () {
  this.timeout(90_000);
  let client: Client;
  let stderr = '';
  before(async () => {
    const home = makeTempDir('agentgov-home-');
    const repo = makeTempDir('agentgov-repo-');
    writeTree(repo, SERVICE_REPO);
    gitInit(repo);
    const pluginDir = makeTempDir('agentgov-plugin-');
    writeTree(pluginDir, {
      'retriever-echo.mjs': ECHO_PLUGIN,
      'agentgov.yaml': 'bundled_plugins: all\nplugins:\n  - ./retriever-echo.mjs\n',
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'serve', '--dev-mode', '--repo', repo, '--config', `${pluginDir}/agentgov.yaml`],
      env: isolatedEnv(home) as Record<string, string>,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    client = new Client({ name: 'recon-plugin-test', version: '0.0.0' });
    await client.connect(transport).catch((error: Error) => {
      throw new Error(`serve did not start: ${error.message}\n${stderr}`);
    });
  });
  after(async () => {
    await client?.close();
  });

  it("lists the dev-only tool and shows the plugin's own scores next to the bundled retrievers", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.include('recon_raw_signals');
    let raw: (Raw & { error?: { code: string } }) | undefined;
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const result = await client.callTool({ name: 'recon_raw_signals', arguments: { query: 'slugify strings' } });
      raw = result.structuredContent as Raw & { error?: { code: string } };
      if (raw.error?.code !== 'E_INDEX_NOT_READY') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(raw?.error, stderr).to.equal(undefined);
    expect(raw?.retrievers).to.include.members(['echo', 'lexical', 'term', 'symbol', 'graph']);
    const slugify = raw?.candidates.find((c) => c.name === 'slugify');
    expect(slugify?.signals['echo']).to.deep.equal({ score: 7.5, rank: 1, why: 'echo' });
    expect(slugify?.signals['lexical']?.score).to.be.a('number').and.not.equal(7.5);
  });
});
