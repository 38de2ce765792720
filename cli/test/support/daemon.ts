import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_MAIN } from './cli-process.js';

/** A long-running `agentgov` child (watch, score) with its output so far. */
export interface Daemon {
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stderr (waiting for it), or rejects when the child exits first. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startDaemon(args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): Daemon {
  const child = spawn(process.execPath, [CLI_MAIN, ...args], {
    env: options.env,
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  let exited: number | null | undefined;
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve((exited = code))));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.resume();
  return {
    child,
    stderr: () => stderr,
    async waitFor(pattern, ms = 30_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const match = stderr.match(pattern);
        if (match) return match;
        if (exited !== undefined)
          throw new Error(`agentgov ${args.join(' ')} exited (${exited}) before ${pattern}:\n${stderr}`);
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async stop(signal = 'SIGTERM') {
      if (exited === undefined) child.kill(signal);
      return exit;
    },
  };
}

/** Every file under `dir` with the SHA-256 of its bytes: two equal snapshots mean nothing was written. */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) out[path] = createHash('sha256').update(readFileSync(path)).digest('hex');
      else out[path] = `special:${stat.mode.toString(8)}`;
    }
  };
  walk(dir);
  return out;
}
