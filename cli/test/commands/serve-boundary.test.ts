import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolatedEnv, makeTempDir, writeTree } from '@agentgov/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const SECRET = 'wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY';

/**
 * A git repository holding what an attacker would plant: a file symlink to a credentials file
 * outside it, a directory symlink to /etc, a directory loop (`x/up -> ..`) and a file loop.
 */
function plantedRepo(): { repo: string; outside: string } {
  const base = makeTempDir('agentgov-boundary-');
  const repo = join(base, 'repo');
  const outside = join(base, 'outside');
  mkdirSync(outside);
  writeFileSync(
    join(outside, 'credentials.ts'),
    `export const awsSecretAccessKey = '${SECRET}';\nexport function readCredentials(): string {\n  return awsSecretAccessKey;\n}\n`,
  );
  writeTree(repo, {
    'package.json': '{"name":"boundary"}',
    'src/index.ts': 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n',
  });
  symlinkSync(join(outside, 'credentials.ts'), join(repo, 'src', 'credentials.ts'));
  symlinkSync(outside, join(repo, 'vendor'));
  symlinkSync('/etc', join(repo, 'etc'));
  mkdirSync(join(repo, 'x'));
  symlinkSync('..', join(repo, 'x', 'up'));
  symlinkSync('loop-b.ts', join(repo, 'src', 'loop-a.ts'));
  symlinkSync('loop-a.ts', join(repo, 'src', 'loop-b.ts'));
  execFileSync('git', ['init', '-q'], { cwd: repo });
  execFileSync('git', ['add', '-A'], { cwd: repo });
  return { repo, outside };
}

const text = (result: unknown): string => JSON.stringify(result);

describe('agentgov serve stays inside the repository (real binary, real MCP client over stdio)', function () {
  this.timeout(90_000);
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';
  let repo: string;
  let outside: string;

  before(async () => {
    ({ repo, outside } = plantedRepo());
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'serve', '--repo', repo],
      env: isolatedEnv(makeTempDir('agentgov-serve-home-')) as Record<string, string>,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    client = new Client({ name: 'boundary-test', version: '0.0.0' });
    try {
      await client.connect(transport);
    } catch (error) {
      throw new Error(`serve did not start: ${(error as Error).message}\n${stderr}`);
    }
  });
  after(async () => client?.close());

  const scout = async (): Promise<Record<string, unknown>> => {
    for (;;) {
      const result = (await client.callTool({ name: 'recon_scout', arguments: {} })) as CallToolResult;
      if (!result.isError) return result.structuredContent as Record<string, unknown>;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it('indexes neither the symlinked credentials file nor anything behind a link out; counts them and the loops', async () => {
    const briefing = await scout();
    const index = briefing['index'] as { files: number; skipped: Record<string, number> };
    expect(index.files).to.equal(1);
    expect(index.skipped).to.deep.include({ 'symlink-outside-repo': 1, 'symlink-loop': 2 });
    expect(text(briefing)).to.not.contain(SECRET);
  });

  it('recon never returns the credentials, asked by name, by seed or by pin', async () => {
    await scout();
    const asked = await client.callTool({
      name: 'recon',
      arguments: {
        task: 'read the aws secret access key in readCredentials',
        seeds: ['awsSecretAccessKey', 'readCredentials'],
      },
    });
    expect(text(asked)).to.not.contain(SECRET);
    expect(text(asked)).to.not.contain('src/credentials.ts');
    const pinned = (await client.callTool({
      name: 'recon',
      arguments: { task: 'credentials', pins: ['src/credentials.ts'] },
    })) as CallToolResult;
    expect((pinned.structuredContent as { error?: { code: string } }).error?.code).to.equal('E_PATH_OUTSIDE_REPO');
    expect(text(pinned)).to.not.contain(SECRET);
  });

  it('keeps serving and watching despite the loops: a file added later is indexed, one added behind a link out is not', async () => {
    await scout();
    writeFileSync(
      join(outside, 'planted.ts'),
      `export function plantedOutside(): string {\n  return '${SECRET}';\n}\n`,
    );
    writeFileSync(join(repo, 'src', 'later.ts'), 'export function addedLater(): number {\n  return 42;\n}\n');
    let found = false;
    const deadline = Date.now() + 30_000;
    while (!found && Date.now() < deadline) {
      const result = await client.callTool({ name: 'recon', arguments: { task: 'addedLater', seeds: ['addedLater'] } });
      found = text(result).includes('src/later.ts');
      if (!found) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(found, `the watcher stopped: ${stderr}`).to.equal(true);
    const planted = await client.callTool({
      name: 'recon',
      arguments: { task: 'plantedOutside', seeds: ['plantedOutside'] },
    });
    expect(text(planted)).to.not.contain(SECRET);
    const index = (await scout())['index'] as { files: number };
    expect(index.files).to.equal(2);
    expect(stderr).to.not.match(/ELOOP|Unhandled|uncaught/i);
  });
});
