import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { isolatedEnv, makeTempDir, writeTree } from '@agentgov/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

function fixtureRepo(): string {
  const repo = makeTempDir('agentgov-limits-repo-');
  writeTree(repo, { 'package.json': '{"name":"fixture"}', 'src/index.ts': 'export const a = 1;\n' });
  return repo;
}

interface Reply {
  status: number;
  body: string;
}

/** A raw request to the MCP endpoint, with full control of Host, Origin and Content-Type. */
function raw(
  url: string,
  headers: Record<string, string>,
  body = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}',
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('agentgov serve limits (real binary, real MCP client)', function () {
  this.timeout(90_000);

  it('over stdio, a 20 MB message gets a JSON-RPC error and serve keeps answering', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'serve', '--repo', fixtureRepo()],
      env: isolatedEnv(makeTempDir('agentgov-serve-home-')) as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const client = new Client({ name: 'limits', version: '0' });
    await client.connect(transport);
    try {
      let failure: unknown;
      try {
        await client.callTool({ name: 'recon', arguments: { task: 'x'.repeat(20 * 1024 * 1024) } }, undefined, {
          timeout: 60_000,
        });
      } catch (error) {
        failure = error;
      }
      expect(failure, 'the oversized call must fail with an error of its own').to.be.instanceOf(McpError);
      expect((failure as McpError).code).to.equal(-32600);
      expect((failure as McpError).message).to.match(/exceeds the \d+-byte limit/);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).to.include('recon');
      expect(stderr).to.contain('stdio message over the size limit skipped');
    } finally {
      await client.close();
    }
  });

  describe('over Streamable HTTP', () => {
    let child: ChildProcess;
    let url: string;
    before(async () => {
      child = spawn(
        process.execPath,
        [MAIN, 'serve', '--repo', fixtureRepo(), '--http', '127.0.0.1:0', '--http-max-sessions', '3'],
        { env: isolatedEnv(makeTempDir('agentgov-serve-home-')), stdio: ['ignore', 'pipe', 'pipe'] },
      );
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

    const json = { 'content-type': 'application/json' };
    for (const [what, headers, status] of [
      ['Content-Type text/plain', { 'content-type': 'text/plain' }, 415],
      ['no Content-Type', {}, 415],
      ['a web page Origin', { ...json, origin: 'https://attacker.example' }, 403],
      ['Origin null', { ...json, origin: 'null' }, 403],
      ['a rebound Host name', { ...json, host: 'attacker.example:7332' }, 403],
    ] as [string, Record<string, string>, number][]) {
      it(`refuses an initialize with ${what} (${status}), with a JSON-RPC error body`, async () => {
        const reply = await raw(url, headers);
        expect(reply.status).to.equal(status);
        expect(JSON.parse(reply.body)).to.have.nested.property('error.message').that.is.a('string');
      });
    }

    it('accepts loopback Host and Origin', async () => {
      const reply = await raw(url, {
        ...json,
        origin: 'http://localhost:5173',
        host: `localhost:${new URL(url).port}`,
      });
      expect(reply.status).to.equal(200);
    });

    it('caps sessions: past --http-max-sessions the least recently used idle session is closed, the others keep working', async () => {
      const clients: Client[] = [];
      try {
        for (let i = 0; i < 3; i++) {
          const client = new Client({ name: `c${i}`, version: '0' });
          await client.connect(new StreamableHTTPClientTransport(new URL(url)));
          clients.push(client);
        }
        // c0 is used last among the first three, so c1 is the least recently used once c3 arrives.
        await clients[2]!.listTools();
        await clients[0]!.listTools();
        const newest = new Client({ name: 'c3', version: '0' });
        await newest.connect(new StreamableHTTPClientTransport(new URL(url)));
        clients.push(newest);
        for (const i of [0, 2, 3])
          expect((await clients[i]!.listTools()).tools.length, `client ${i}`).to.be.greaterThan(0);
        let evicted: unknown;
        try {
          await clients[1]!.listTools();
        } catch (error) {
          evicted = error;
        }
        expect(evicted, 'the least recently used session is gone').to.be.instanceOf(Error);
        expect(String((evicted as Error).message)).to.match(/404|session/i);
        expect(child.exitCode).to.equal(null);
      } finally {
        for (const client of clients) await client.close().catch(() => undefined);
      }
    });
  });

  it('refuses a bad --http-max-sessions with a usage error (exit 2)', async () => {
    const child = spawn(
      process.execPath,
      [MAIN, 'serve', '--repo', fixtureRepo(), '--http', '127.0.0.1:0', '--http-max-sessions', '0'],
      { env: isolatedEnv(makeTempDir('agentgov-serve-home-')), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).to.equal(2);
    expect(stderr).to.contain('E_INVALID_ARGUMENT');
  });
});
