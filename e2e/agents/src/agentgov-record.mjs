/**
 * What agentgov recorded of a run: the gate journal (one file per hook call answered without
 * `watch`), `watch --once` (records the journal and the agents' captures in system.db), `replay` of
 * the agent's own transcript with its JSONL records, and `status --json`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentgov, describeRun } from './run-agent.mjs';

/** The entries of `$AGENTGOV_HOME/gate-journal` (the hook calls answered in process). */
export function gateJournal(run) {
  const dir = join(run.home, '.agentgov', 'gate-journal');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')));
}

async function ok(run, args) {
  const result = await agentgov(run, args);
  if (result.code !== 0) throw new Error(`agentgov ${args.join(' ')}: ${describeRun(result)}`);
  return result;
}

/** `agentgov watch --once --no-score`: the journal and every detected capture into system.db. */
export async function watchOnce(run) {
  const result = await ok(run, ['watch', '--once', '--no-score']);
  return JSON.parse(result.stdout.trim().split('\n').at(-1));
}

/** `agentgov replay FILE --adapter A --output …`: `{ records, summary }` (summary = stderr). */
export async function replay(run, file, adapter) {
  const output = join(run.dir, `replay-${Date.now()}.jsonl`);
  const result = await ok(run, ['replay', file, '--adapter', adapter, '--output', output]);
  const text = existsSync(output) ? readFileSync(output, 'utf8') : '';
  return {
    records: text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line)),
    summary: result.stderr,
  };
}

/** `agentgov status --json`. */
export async function status(run) {
  return JSON.parse((await ok(run, ['status', '--json'])).stdout);
}

/** Every file under `dir` whose name matches `pattern`, sorted. */
export function findFiles(dir, pattern) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && pattern.test(entry.name)) found.push(join(entry.parentPath ?? entry.path, entry.name));
  }
  return found.sort();
}

/**
 * `agentgov watch --no-score` running for the run: it answers the gate hook over its socket and tails
 * the agents' captures. `stop()` sends SIGTERM and resolves its exit code.
 */
export async function startWatch(run, timeoutMs = 60_000) {
  const { spawn } = await import('node:child_process');
  const { AGENTGOV_BIN } = await import('./run-agent.mjs');
  const child = spawn(process.execPath, [AGENTGOV_BIN, 'watch', '--no-score'], {
    cwd: run.project,
    env: run.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`agentgov watch did not start within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const look = (chunk) => {
      output += chunk;
      if (/watching /.test(output)) {
        clearTimeout(timer);
        resolve(undefined);
      }
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    exited.then((code) => reject(new Error(`agentgov watch exited ${code} before it started:\n${output}`)));
  });
  return {
    output: () => output,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
