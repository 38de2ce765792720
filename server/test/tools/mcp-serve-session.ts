import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolatedEnv, makeTempDir, writeTree } from '@agentgov/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { gitInit } from '../recon/fixture-repo.js';

/** The real CLI binary (built by the root `tsc -b`). */
const MAIN = fileURLToPath(new URL('../../../../cli/dist/src/main.js', import.meta.url));

export type Structured = Record<string, unknown> & {
  error?: { code: string; message: string; details: Record<string, unknown> };
};

export interface ServeSession {
  repo: string;
  call(name: string, args: Record<string, unknown>): Promise<Structured>;
  /** The readable text rendering (content[0]) of a call. */
  text(name: string, args: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** `agentgov serve` on an existing repository, with the SDK's MCP client over stdio (the index may still be building). */
export async function serveExisting(
  repo: string,
  home: string,
  config: string,
): Promise<ServeSession & { stderr: () => string }> {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'serve', '--repo', repo, '--config', config],
    env: isolatedEnv(home) as Record<string, string>,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const client = new Client({ name: 'agentgov-test', version: '0.0.0' });
  await client.connect(transport).catch((error: Error) => {
    throw new Error(`serve did not start: ${error.message}\n${stderr}`);
  });
  const raw = (name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  const call = async (name: string, args: Record<string, unknown>) =>
    (await raw(name, args)).structuredContent as Structured;
  const text = async (name: string, args: Record<string, unknown>) =>
    ((await raw(name, args)).content as Array<{ text: string }>)[0]!.text;
  return { repo, call, text, close: () => client.close(), stderr: () => stderr };
}

/**
 * `agentgov serve` on a temp git repository holding `files`, with the SDK's MCP client over stdio,
 * after the first index build (a `recon` that also marks the session read-write).
 */
export async function serveRepository(files: Record<string, string>): Promise<ServeSession> {
  const home = makeTempDir('agentgov-home-');
  const repo = makeTempDir('agentgov-repo-');
  writeTree(repo, files);
  gitInit(repo);
  const configDir = makeTempDir('agentgov-config-');
  writeFileSync(join(configDir, 'agentgov.yaml'), 'log_level: WARNING\n');
  const session = await serveExisting(repo, home, join(configDir, 'agentgov.yaml'));
  for (let attempt = 0; ; attempt += 1) {
    const result = await session.call('recon', { task: 'rename and move python code', read_only: false });
    if (result.error?.code !== 'E_INDEX_NOT_READY') break;
    if (attempt > 300) throw new Error('the index never became ready');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return session;
}
