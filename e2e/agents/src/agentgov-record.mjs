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
  return readdirSync(dir).sort().map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')));
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
  return { records: text.split('\n').filter(Boolean).map((line) => JSON.parse(line)), summary: result.stderr };
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
