// The real `agentgov serve --repo <dir>` over stdio with the MCP SDK's client, as an agent meets it:
// a private home (under /var/tmp, not /tmp), every bundled plugin, index-backed calls waiting out
// E_INDEX_NOT_READY.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;
const { Client } = await import(join(ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js'));
const { StdioClientTransport } = await import(
  join(ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js')
);
const { isolatedEnv } = await import(join(ROOT, 'core/dist/src/testing/index.js'));

export const CLI_MAIN = join(ROOT, 'cli/dist/src/main.js');

export async function startServe(repo, { args = [], main = CLI_MAIN } = {}) {
  const home = mkdtempSync('/var/tmp/agentgov-bench-home-');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [main, 'serve', '--repo', repo, ...args],
    env: isolatedEnv(home),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => void (stderr += chunk.toString()));
  const client = new Client({ name: 'bench-answers', version: '0.0.0' });
  await client.connect(transport).catch((error) => {
    throw new Error(`serve did not start: ${error.message}\n${stderr}`);
  });
  return {
    client,
    home,
    stderr: () => stderr,
    /** The whole CallToolResult, after waiting out E_INDEX_NOT_READY. */
    async call(name, args) {
      for (let attempt = 0; ; attempt++) {
        const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
        if (result.structuredContent?.error?.code !== 'E_INDEX_NOT_READY' || attempt > 3000) return result;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    close: () => client.close(),
  };
}

/** Bytes of a tool answer as the agent receives it: its text content and its structured copy. */
export function answerBytes(result) {
  const text = (result.content ?? [])
    .filter((c) => c.type === 'text')
    .reduce((n, c) => n + Buffer.byteLength(c.text), 0);
  const structured = result.structuredContent ? Buffer.byteLength(JSON.stringify(result.structuredContent)) : 0;
  return { text, structured, total: text + structured };
}
