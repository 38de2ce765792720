// A real `agentgov serve` over stdio with the SDK's MCP client, on one bench tree.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { WORK_DIR } from '../recon/trees.mjs';

const MAIN = fileURLToPath(new URL('../../cli/dist/src/main.js', import.meta.url));

/** `main`: another build's cli/dist/src/main.js (a checkout of main, for a before/after comparison). */
export async function serve(repo, { timeoutMs = 600_000, main = MAIN } = {}) {
  const home = join(WORK_DIR, 'rename', 'home');
  mkdirSync(home, { recursive: true });
  const env = {
    ...process.env,
    HOME: home,
    AGENTGOV_HOME: join(home, '.agentgov'),
    AGENTX_HOME: join(home, '.agentx'),
  };
  delete env.AGENTGOV_CONFIG;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [main, 'serve', '--repo', repo],
    env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-rename', version: '0.0.0' });
  await client.connect(transport);
  // a commit re-indexes and a cold language service can take longer than the SDK's 60 s default on a loaded machine
  const call = async (name, args) =>
    (await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs })).structuredContent;
  const started = Date.now();
  for (;;) {
    const result = await call('recon', { task: 'rename symbols across the code', read_only: false });
    if (result?.error?.code !== 'E_INDEX_NOT_READY') break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  process.stderr.write(`index ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return { call, close: () => client.close() };
}

/** Back to the committed base tree: tracked files restored, everything new removed (the index dir kept). */
export function resetTree(dir) {
  execFileSync('git', ['-C', dir, 'reset', '-q', '--hard'], { stdio: 'ignore' });
  execFileSync('git', ['-C', dir, 'clean', '-q', '-fd', '-e', '.agentgov'], { stdio: 'ignore' });
}

/** When an ambiguous name lists candidates, the one declared at `path:line`; the symbol to retry with. */
export async function preview(call, tool, args, location) {
  let result = await call(tool, args);
  if (result?.error?.code === 'E_SYMBOL_AMBIGUOUS' && location) {
    const candidate = result.error.details.candidates.find(
      (c) => c.location === location || c.also_declared_at?.includes(location),
    );
    if (!candidate) return { result, retried: false };
    result = await call(tool, { ...args, symbol: candidate.symbol });
    return { result, retried: true };
  }
  return { result, retried: false };
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
}
