import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolatedEnv, makeTempDir, writeTree } from '@agentgov/core/testing';
import { TOOLS } from '@agentgov/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  LoggingMessageNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

function fixtureRepo(): string {
  const repo = makeTempDir('agentgov-serve-repo-');
  writeTree(repo, {
    'package.json': '{"name":"fixture","main":"src/index.ts"}',
    'src/index.ts': 'export const a = 1;\n',
  });
  return repo;
}

async function stdioClient(args: string[], home: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'serve', ...args],
    env: isolatedEnv(home) as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const client = new Client({ name: 'serve-test', version: '0.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`serve did not start: ${(error as Error).message}\n${stderr}`);
  }
  return { client, stderr: () => stderr };
}

/** A git repository of `count` TypeScript files importing each other (a tree), large enough for a first build to take a while. */
function largeRepo(count: number): string {
  const repo = makeTempDir('agentgov-serve-large-');
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const dep = `./m${Math.floor(i / 2)}`;
    files[`src/d${i % 30}/m${i}.ts`] =
      `${i > 1 ? `import { f${Math.floor(i / 2)} } from '../d${Math.floor(i / 2) % 30}/${dep.slice(2)}';\n` : ''}/** Function ${i}. */\nexport function f${i}(n: number): number {\n  return n + ${i};\n}\n\nexport class C${i} {\n  value = f${i}(1);\n}\n`;
  }
  writeTree(repo, files);
  execFileSync('git', ['init', '-q'], { cwd: repo });
  return repo;
}

/** A config file in which index-backed calls do not wait for the first build (they answer E_INDEX_NOT_READY at once). */
function noIndexWait(): string {
  const file = join(makeTempDir('agentgov-serve-config-'), 'agentgov.yaml');
  writeFileSync(file, 'server:\n  index:\n    wait_ms: 0\n');
  return file;
}

const errorCode = (result: unknown) =>
  ((result as CallToolResult).structuredContent as { error?: { code: string } }).error?.code;

describe('agentgov serve (the real binary)', function () {
  this.timeout(60_000);

  describe('over stdio', () => {
    let home: string;
    let repo: string;
    let client: Client;
    let stderr: () => string;
    before(async () => {
      // temp dirs are made in hooks, not at collection time: other files' cleanups run in between
      home = makeTempDir('agentgov-serve-home-');
      repo = fixtureRepo();
      ({ client, stderr } = await stdioClient(['--repo', repo], home));
    });
    after(async () => client?.close());

    it('lists every tool with its JSON Schema and annotations; dev-only tools are absent', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).to.deep.equal(TOOLS.filter((t) => !t.devOnly).map((t) => t.name));
      expect(tools.map((t) => t.name))
        .to.include.members(['describe', 'recon_scout', 'graph_cycles', 'graph_communities'])
        .and.not.include('recon_raw_signals');
      for (const tool of tools) {
        const definition = TOOLS.find((t) => t.name === tool.name)!;
        expect(tool.inputSchema).to.include({ type: 'object', additionalProperties: false });
        expect(tool.description).to.equal(definition.brief);
        expect(tool.annotations).to.deep.include({
          readOnlyHint: definition.readOnly,
          ...(definition.readOnly ? {} : { destructiveHint: true }),
        });
      }
    });

    const malformed: [string, Record<string, unknown>][] = [
      ['a wrong type', { action: 7 }],
      ['an unknown field', { action: 'tool', name: 'describe', verbose: true }],
      ['a missing required field', { name: 'describe' }],
    ];
    for (const [what, args] of malformed) {
      it(`answers E_INVALID_ARGUMENT for ${what} and keeps serving`, async () => {
        expect(errorCode(await client.callTool({ name: 'describe', arguments: args }))).to.equal('E_INVALID_ARGUMENT');
        const ok = (await client.callTool({
          name: 'describe',
          arguments: { action: 'error', code: 'E_INDEX_NOT_READY' },
        })) as CallToolResult;
        expect(ok.isError).to.not.equal(true);
      });
    }

    it('refuses scopes outside the repository (.., absolute) once indexed, and keeps serving', async () => {
      let ready = false;
      while (!ready) {
        const result = await client.callTool({ name: 'recon_scout', arguments: {} });
        ready = !result.isError;
        if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      for (const scope of ['../', '../../etc', '/etc', 'src/../../outside']) {
        expect(errorCode(await client.callTool({ name: 'recon_scout', arguments: { scope } })), scope).to.equal(
          'E_PATH_OUTSIDE_REPO',
        );
      }
      const ok = (await client.callTool({ name: 'recon_scout', arguments: { scope: 'src' } })) as CallToolResult;
      expect(ok.isError).to.not.equal(true);
    });

    it('answers arguments that are not an object with a protocol error, and keeps serving', async () => {
      let failed: unknown;
      try {
        await client.request(
          { method: 'tools/call', params: { name: 'describe', arguments: [1, 2] } },
          CallToolResultSchema,
        );
      } catch (error) {
        failed = error;
      }
      expect(failed).to.be.instanceOf(Error);
      const ok = (await client.callTool({
        name: 'describe',
        arguments: { action: 'error', code: 'E_INTERNAL' },
      })) as CallToolResult;
      expect(ok.isError).to.not.equal(true);
    });

    it('logs to stderr and to a private file under $AGENTGOV_HOME/logs, never to stdout', async () => {
      expect(stderr()).to.contain(`serving ${repo}`);
      const logs = join(home, '.agentgov', 'logs');
      const files = readdirSync(logs).filter((f) => f.startsWith('serve-'));
      expect(files).to.have.length(1);
      expect(readFileSync(join(logs, files[0]!), 'utf8')).to.contain('"message":"serving ');
      expect(statSync(join(logs, files[0]!)).mode & 0o777, 'log file is private').to.equal(0o600);
      expect(statSync(logs).mode & 0o777, 'log directory is private').to.equal(0o700);
    });
  });

  it('lists the dev-only tools with --dev-mode', async () => {
    const { client } = await stdioClient(['--repo', fixtureRepo(), '--dev-mode'], makeTempDir('agentgov-serve-home-'));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).to.deep.equal(TOOLS.map((t) => t.name));
      expect(names).to.include('recon_raw_signals');
    } finally {
      await client.close();
    }
  });

  describe('over Streamable HTTP', () => {
    let child: ChildProcess;
    let url: string;
    before(async () => {
      child = spawn(process.execPath, [MAIN, 'serve', '--repo', fixtureRepo(), '--http', '127.0.0.1:0'], {
        env: isolatedEnv(makeTempDir('agentgov-serve-home-')),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      url = await new Promise<string>((resolve, reject) => {
        let seen = '';
        child.stderr!.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          const match = /MCP Streamable HTTP on (\S+)/.exec(seen);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${seen}`)));
      });
    });
    after(async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    });

    it('serves sessions with tools/list and tools/call; each session is independent', async () => {
      const clients = [new Client({ name: 'a', version: '0' }), new Client({ name: 'b', version: '0' })];
      for (const client of clients) await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        for (const client of clients) {
          const { tools } = await client.listTools();
          expect(tools.map((t) => t.name)).to.deep.equal(TOOLS.filter((t) => !t.devOnly).map((t) => t.name));
          expect(
            errorCode(await client.callTool({ name: 'describe', arguments: { action: 'tool', extra: 1 } })),
          ).to.equal('E_INVALID_ARGUMENT');
          const doc = (await client.callTool({
            name: 'describe',
            arguments: { action: 'tool', name: 'describe' },
          })) as CallToolResult;
          expect(doc.structuredContent).to.include({ name: 'describe', group: 'Introspection' });
        }
      } finally {
        for (const client of clients) await client.close();
      }
    });

    it('answers a request without a session with a JSON-RPC error, not a crash', async () => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
      expect(response.status).to.equal(400);
      const broken = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{not json',
      });
      expect(broken.status).to.equal(400);
      expect(child.exitCode).to.equal(null);
    });
  });

  it('answers E_INDEX_NOT_READY with progress during the first build of a large repository, then the briefing', async function () {
    this.timeout(180_000);
    const FILES = 3000;
    const repo = largeRepo(FILES);
    const { client } = await stdioClient(
      ['--repo', repo, '--config', noIndexWait()],
      makeTempDir('agentgov-serve-home-'),
    );
    const notifications: { event: string; done: number; total: number }[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      if (n.params.logger === 'agentgov.index')
        notifications.push(n.params.data as { event: string; done: number; total: number });
    });
    try {
      const notReady: { done: number; total: number }[] = [];
      const progressSeen: { progress: number; total?: number }[] = [];
      let briefing: Record<string, unknown> | undefined;
      while (!briefing) {
        const result = (await client.callTool({ name: 'recon_scout', arguments: {} }, undefined, {
          onprogress: (p) => void progressSeen.push(p),
          timeout: 120_000,
        })) as CallToolResult;
        if (!result.isError) {
          briefing = result.structuredContent as Record<string, unknown>;
          break;
        }
        const error = (
          result.structuredContent as {
            error: { code: string; details: { progress: { done: number; total: number } } };
          }
        ).error;
        expect(error.code).to.equal('E_INDEX_NOT_READY');
        notReady.push(error.details.progress);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(notReady.length, 'the first calls must come during the build').to.be.greaterThan(0);
      const during = notReady.filter((p) => p.total > 0);
      expect(during.length).to.be.greaterThan(0);
      expect(during.some((p) => p.done < p.total)).to.equal(true);
      expect(progressSeen.length).to.be.greaterThan(0);
      for (const p of progressSeen) expect(p).to.have.property('message', 'indexing the repository');
      expect(progressSeen.some((p) => p.total! > 0 && p.progress < p.total!)).to.equal(true);
      expect(notifications.some((n) => n.event === 'index_progress' && n.done < n.total)).to.equal(true);
      expect(notifications.at(-1)).to.deep.include({ event: 'index_ready' });
      expect(briefing['index']).to.deep.include({ files: FILES });
    } finally {
      await client.close();
    }
  });

  it('--wait-for-index: the first call waits for the first build (server.index.wait_ms is 0) and answers it', async function () {
    this.timeout(180_000);
    const FILES = 1500;
    const repo = largeRepo(FILES);
    const { client } = await stdioClient(
      ['--repo', repo, '--config', noIndexWait(), '--wait-for-index'],
      makeTempDir('agentgov-serve-home-'),
    );
    try {
      const progress: { progress: number; total?: number; message?: string }[] = [];
      const result = (await client.callTool({ name: 'recon_scout', arguments: {} }, undefined, {
        onprogress: (p) => void progress.push(p),
        timeout: 170_000,
      })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.structuredContent).slice(0, 500)).to.not.equal(true);
      expect((result.structuredContent as { index: unknown }).index).to.deep.include({ files: FILES });
      // notifications come only if the build was still running when the call came: each says what it is, and they only increase
      for (const p of progress) expect(p).to.include({ message: 'indexing the repository' });
      const values = progress.map((p) => p.progress);
      expect(values).to.deep.equal([...new Set(values)].sort((a, b) => a - b));
    } finally {
      await client.close();
    }
  });

  it('--wait-for-index with a value that is not seconds is a usage error', () => {
    const result = spawnSync(process.execPath, [MAIN, 'serve', '--repo', fixtureRepo(), '--wait-for-index=soon'], {
      env: isolatedEnv(makeTempDir('agentgov-serve-home-')),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(result.status, result.stderr).to.equal(2);
    expect(result.stderr).to.contain(
      "--wait-for-index takes a number of seconds ≥ 0, or nothing to wait until the index is ready (got 'soon')",
    );
  });

  it('ends quietly (exit 0, no crash) when the client goes away before reading its answer', async () => {
    const home = makeTempDir('agentgov-serve-home-');
    const repo = fixtureRepo();
    const child = spawn(process.execPath, [MAIN, 'serve', '--repo', repo], {
      env: isolatedEnv(home),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const initialized = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'leaver', version: '0' } },
    });
    await initialized;
    child.stdout.destroy(); // the client stops reading: the next answer hits a broken pipe
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    for (let id = 2; id < 6; id++) send({ jsonrpc: '2.0', id, method: 'tools/list' });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).not.to.contain('Unhandled');
    expect(stderr).not.to.contain('EPIPE');
    expect(code).to.equal(0);
  });

  it('refuses a non-loopback --http address with a usage error (exit 2)', () => {
    const result = spawnSync(process.execPath, [MAIN, 'serve', '--repo', fixtureRepo(), '--http', '0.0.0.0:7000'], {
      env: isolatedEnv(makeTempDir('agentgov-serve-home-')),
      encoding: 'utf8',
      input: '',
    });
    expect(result.status).to.equal(2);
    expect(result.stderr).to.contain('E_INVALID_ARGUMENT');
  });

  it('refuses a missing repository (exit 4)', () => {
    const missing = join(makeTempDir('agentgov-serve-'), 'nope');
    const result = spawnSync(process.execPath, [MAIN, 'serve', '--repo', missing], {
      env: isolatedEnv(makeTempDir('agentgov-serve-home-')),
      encoding: 'utf8',
      input: '',
    });
    expect(existsSync(missing)).to.equal(false);
    expect(result.status).to.equal(4);
    expect(result.stderr).to.contain('E_NOT_FOUND');
  });
});
