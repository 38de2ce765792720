#!/usr/bin/env node
// Replay throughput per framework adapter: for each of claude-code, codex, gemini-cli, cursor and
// copilot-cli, generates a capture of `sessions` × `calls` tool calls in that framework's format
// (formats.mjs: the same mix of calls run.mjs uses), then runs the real CLI
// (`agentgov replay DIR --adapter NAME --output FILE`) over it from an empty $AGENTGOV_HOME and
// reports events/s (wall and CPU). One line per adapter. Usage:
//   node bench/replay/adapters.mjs [--sessions 20] [--calls 2500] [--adapters a,b]
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from '../cli-args.mjs';
import { FORMATS, generate } from './formats.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = join(root, 'cli', 'dist', 'src', 'main.js');
const { values } = benchArgs(import.meta.url, {
  options: {
    sessions: { type: 'string', default: '20' },
    calls: { type: 'string', default: '2500' },
    adapters: { type: 'string', default: Object.keys(FORMATS).join(',') },
  },
});
const sessions = Number(values.sessions);
const calls = Number(values.calls);
const adapters = values.adapters.split(',');
const quote = (s) => `'${s.replaceAll("'", "'\\''")}'`;

const rows = [];
for (const adapter of adapters) {
  const work = join(root, 'bench', '.work', 'replay-adapters', adapter);
  rmSync(work, { recursive: true, force: true });
  const capture = join(work, 'capture');
  const files = generate(adapter, capture, sessions, calls);
  const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
  const home = join(work, 'home');
  mkdirSync(home, { recursive: true });
  const env = {
    ...process.env,
    HOME: home,
    AGENTGOV_HOME: join(home, '.agentgov'),
    AGENTX_HOME: join(home, '.agentx'),
  };
  delete env.AGENTGOV_CONFIG;
  // bash's `time` adds the child's CPU seconds (user+sys), steadier than wall time on a shared machine.
  const argv = [process.execPath, cli, 'replay', capture, '--adapter', adapter];
  argv.push('--output', join(home, 'records.jsonl'), '--log-level', 'WARNING');
  const command = `TIMEFORMAT='cpu %U %S'; time ${argv.map(quote).join(' ')}`;
  const start = process.hrtime.bigint();
  const result = spawnSync('bash', ['-c', command], { env, encoding: 'utf8', cwd: home });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (result.status !== 0) throw new Error(`replay --adapter ${adapter} failed (${result.status}): ${result.stderr}`);
  const summary = result.stderr.split('\n').find((l) => l.startsWith('replayed')) ?? '';
  const events = Number(/: (\d+) new event/.exec(summary)?.[1] ?? NaN);
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(result.stderr);
  const cpuSeconds = cpu ? Number(cpu[1]) + Number(cpu[2]) : NaN;
  const row = {
    bench: 'replay-adapter',
    adapter,
    sessions,
    events,
    capture_mib: +(bytes / 2 ** 20).toFixed(1),
    seconds: +seconds.toFixed(2),
    events_per_s: Math.round(events / seconds),
    cpu_seconds: +cpuSeconds.toFixed(2),
    events_per_cpu_s: Math.round(events / cpuSeconds),
    summary,
  };
  if (events !== sessions * calls)
    throw new Error(`${adapter}: expected ${sessions * calls} events, the replay recorded ${events}: ${summary}`);
  rows.push(row);
  console.log(JSON.stringify(row));
}
console.log('\nadapter       events  capture MiB  wall s  events/s  cpu s  events/cpu-s');
for (const r of rows)
  console.log(
    [
      r.adapter.padEnd(12),
      String(r.events).padStart(7),
      String(r.capture_mib).padStart(11),
      String(r.seconds).padStart(7),
      String(r.events_per_s).padStart(9),
      String(r.cpu_seconds).padStart(6),
      String(r.events_per_cpu_s).padStart(13),
    ].join('  '),
  );
console.log(
  `\nreproduce: node bench/replay/adapters.mjs --sessions ` +
    `${sessions} --calls ${calls} --adapters ` +
    `${adapters.join(',')}`,
);
