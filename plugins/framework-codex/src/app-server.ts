/**
 * Asks Codex itself which hooks it will run: `codex app-server` (JSON-RPC over stdio, the API the
 * Codex TUI's `/hooks` screen uses) answers `hooks/list` with every hook Codex discovered for a
 * working directory and its `trustStatus` (`trusted`, `managed`, `untrusted`, `modified`). Codex
 * computes the hook's hash; agentgov never does. Project hooks are not listed at all while the
 * project is untrusted.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';

export interface CodexHookEntry {
  key: string;
  eventName: string;
  handlerType: string;
  command?: string;
  sourcePath: string;
  source: string;
  enabled: boolean;
  isManaged: boolean;
  currentHash: string;
  trustStatus: 'managed' | 'untrusted' | 'trusted' | 'modified' | string;
}

export interface CodexHooksList {
  hooks: CodexHookEntry[];
  warnings: string[];
  errors: { message: string; path: string }[];
}

/** The `codex` executable on the environment's PATH (how a person starts it), or undefined. */
export function findCodexBinary(env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'codex');
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * `hooks/list` for `cwd`, from `codex app-server` started with the agent's environment. Rejects with
 * what went wrong (Codex missing, exited, an error answer, no answer within `timeoutMs`).
 */
export function listCodexHooks(
  codex: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 20_000,
): Promise<CodexHooksList> {
  return new Promise((resolve, reject) => {
    const child = spawn(codex, ['app-server'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    let settled = false;
    const finish = (error: Error | undefined, value?: CodexHooksList): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGTERM');
      if (error) reject(error);
      else resolve(value!);
    };
    const timer = setTimeout(
      () => finish(new Error(`codex app-server did not answer hooks/list within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.on('error', (error) => finish(new Error(`could not start ${codex} app-server: ${error.message}`)));
    child.on('exit', (code, signal) =>
      finish(
        new Error(
          `codex app-server exited (${signal ?? code}) before answering` +
            `${stderr ? `: ${stderr.trim().split('\n').slice(-2).join(' / ')}` : ''}`,
        ),
      ),
    );
    child.stderr.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.stdin.on('error', () => {});
    const send = (message: Record<string, unknown>): void =>
      void child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    createInterface({ input: child.stdout }).on('line', (line) => {
      let message: { id?: number; result?: unknown; error?: { message?: string } };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        return;
      }
      if (message.id === 1) {
        if (message.error) return finish(new Error(`codex app-server refused initialize: ${message.error.message}`));
        send({ method: 'initialized' });
        send({ id: 2, method: 'hooks/list', params: { cwds: [cwd] } });
      } else if (message.id === 2) {
        if (message.error) return finish(new Error(`codex app-server refused hooks/list: ${message.error.message}`));
        const data = (message.result as { data?: CodexHooksList[] } | undefined)?.data ?? [];
        finish(undefined, {
          hooks: data.flatMap((d) => d.hooks ?? []),
          warnings: data.flatMap((d) => d.warnings ?? []),
          errors: data.flatMap((d) => d.errors ?? []),
        });
      }
    });
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'agentgov', version: '0.1.0' } } });
  });
}
