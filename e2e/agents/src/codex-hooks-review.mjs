/**
 * The person's step Codex requires before it runs a hook: reviewing it in `/hooks` and trusting it.
 * Done here through the API the `/hooks` screen itself uses, `codex app-server`: `hooks/list` shows
 * each hook Codex discovered with its command and the hash Codex computed (`currentHash`), and
 * trusting one writes that hash as `hooks.state."<key>".trusted_hash` in the user's config.toml
 * (`config/batchWrite`). Only hooks whose command the test reviewed (`accept`) are trusted; nothing
 * is bypassed and no hash is computed here.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A JSON-RPC session with `codex app-server` in `cwd`; `call(method, params)` → result. */
async function appServer(codex, cwd, env) {
  const child = spawn(codex, ['app-server'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const waiting = new Map();
  let next = 0;
  child.on('exit', (code) => {
    for (const { reject } of waiting.values())
      reject(new Error(`codex app-server exited ${code}: ${stderr.slice(-500)}`));
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line);
    const pending = message.id !== undefined ? waiting.get(message.id) : undefined;
    if (!pending) return;
    waiting.delete(message.id);
    if (message.error) pending.reject(new Error(`${pending.method}: ${JSON.stringify(message.error)}`));
    else pending.resolve(message.result);
  });
  const call = (method, params) =>
    new Promise((resolve, reject) => {
      const id = (next += 1);
      waiting.set(id, { resolve, reject, method });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await call('initialize', { clientInfo: { name: 'agentgov-e2e', version: '0.1.0' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'initialized' })}\n`);
  return { call, close: () => child.kill('SIGTERM') };
}

/** The hooks Codex lists for `cwd` (`hooks/list`). */
export async function codexHooks(codex, cwd, env) {
  const server = await appServer(codex, cwd, env);
  try {
    const result = await server.call('hooks/list', { cwds: [cwd] });
    return result.data.flatMap((d) => d.hooks);
  } finally {
    server.close();
  }
}

/**
 * Reviews the hooks Codex lists for `cwd` and trusts those `accept(hook)` approves, as a person does
 * in `/hooks`; returns the hooks trusted.
 */
export async function trustReviewedHooks(codex, cwd, env, accept) {
  const server = await appServer(codex, cwd, env);
  try {
    const { data } = await server.call('hooks/list', { cwds: [cwd] });
    const reviewed = data
      .flatMap((d) => d.hooks)
      .filter((h) => h.trustStatus !== 'trusted' && h.trustStatus !== 'managed' && accept(h));
    if (reviewed.length) {
      const state = Object.fromEntries(reviewed.map((h) => [h.key, { trusted_hash: h.currentHash }]));
      await server.call('config/batchWrite', {
        edits: [{ keyPath: 'hooks.state', mergeStrategy: 'upsert', value: state }],
      });
    }
    return reviewed;
  } finally {
    server.close();
  }
}
