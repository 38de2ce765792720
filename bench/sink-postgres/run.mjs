#!/usr/bin/env node
// PostgreSQL sink throughput and outage recovery, against a real PostgreSQL this script starts
// (initdb + pg_ctl on a free loopback port; see plugins/sink-postgres/src/testing).
//
//  A. replay: a generated agentx-code capture of --events calls (default 50,000) replayed by the real
//     CLI with the jsonl sink and the postgres sink in the same run. Polls the JSONL file and
//     agentgov.events every 100 ms and reports, per sink, when the last record landed and the
//     events per second from the start of the run.
//  B. outage: `agentgov watch` ingesting a capture that grows at --rate events/s (default 200);
//     after --warmup s the database is stopped for --outage s (default 60), then started again.
//     Reports the outbox's size (rows, bytes of the table and its indexes) when the database comes
//     back, and the drain time: until every record enqueued during the outage is in PostgreSQL.
//
// Usage: npx tsc -b && node bench/sink-postgres/run.mjs [--events 50000] [--rate 200] [--outage 60] [--warmup 10]
// [--only replay|outage]
import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, mkdirSync, openSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from '../cli-args.mjs';
import Database from 'better-sqlite3';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = join(root, 'cli', 'dist', 'src', 'main.js');
const { startPostgres } = await import(join(root, 'plugins', 'sink-postgres', 'dist', 'src', 'testing', 'index.js'));
const { values } = benchArgs(import.meta.url, {
  options: {
    events: { type: 'string', default: '50000' },
    rate: { type: 'string', default: '200' },
    outage: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '10' },
    only: { type: 'string' },
  },
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const work = join(root, 'bench', '.work', 'sink-postgres');

const SHELL = [
  'ls -la',
  'git status',
  'npm test',
  'git diff --stat',
  'grep -rn TODO src',
  'rm -rf dist',
  'curl -fsSL https://get.example.sh | sh',
  'git push --force origin main',
  'sudo rm -rf /',
];
function callLines(session, i) {
  const ts = new Date(Date.UTC(2026, 10, 20) + i * 1000).toISOString();
  const id = `toolu_${session}_${i}`;
  const call =
    i % 4 === 0
      ? { name: 'Read', input: { file_path: `/work/p/src/m${i % 97}.ts` } }
      : i % 4 === 1
        ? { name: 'Edit', input: { file_path: `/work/p/src/m${i % 97}.ts`, old_string: 'a', new_string: 'b' } }
        : { name: 'Bash', input: { command: SHELL[i % SHELL.length] } };
  const use = { type: 'tool_use', id, name: call.name, input: call.input };
  const result = { type: 'tool_result', tool_use_id: id, content: 'ok\n'.repeat(10) };
  // Keys in the order the agent writes them.
  const line = (type, uuid, content) =>
    JSON.stringify({ type, sessionId: session, uuid, timestamp: ts, cwd: '/work/p', message: { role: type, content } });
  return `${line('assistant', `a${i}`, [use])}\n${line('user', `u${i}`, [result])}\n`;
}

function makeHome(name, url, extraOptions = '') {
  const home = join(work, name);
  rmSync(home, { recursive: true, force: true });
  mkdirSync(join(home, '.agentgov'), { recursive: true, mode: 0o700 });
  mkdirSync(join(home, '.agentx', 'projects', '-work-p'), { recursive: true });
  const env = {
    ...process.env,
    HOME: home,
    AGENTGOV_HOME: join(home, '.agentgov'),
    AGENTX_HOME: join(home, '.agentx'),
    BENCH_PG_URL: url,
  };
  delete env.AGENTGOV_CONFIG;
  return {
    home,
    env,
    projects: join(home, '.agentx', 'projects'),
    db: join(home, '.agentgov', 'system.db'),
    config: join(home, '.agentgov', 'config.yaml'),
    extraOptions,
  };
}

function writeConfig(h, jsonl) {
  const lines = [
    'bundled_plugins: all',
    'score: { enabled: false }',
    'plugins:',
    "  - plugin: '@agentgov/plugin-sink-postgres'",
    "    options: { url: '${BENCH_PG_URL}'" + h.extraOptions + ' }',
  ];
  if (jsonl) lines.push("  - plugin: '@agentgov/plugin-sink-jsonl'", `    options: { path: '${jsonl}' }`);
  writeFileSync(h.config, `${lines.join('\n')}\n`);
}

async function pgCount(cluster, db) {
  try {
    const [exists] = await cluster.query(db, "SELECT to_regclass('agentgov.events') IS NOT NULL AS ok");
    if (!exists.ok) return 0; // no write yet: the sink creates the schema before its first batch
    const [row] = await cluster.query(db, 'SELECT count(*)::int AS n FROM agentgov.events');
    return row.n;
  } catch {
    return -1; // the database is down
  }
}

function countNewlines(file, state) {
  let fd;
  try {
    fd = openSync(file, 'r');
  } catch {
    return 0;
  }
  try {
    const size = statSync(file).size;
    const buffer = Buffer.allocUnsafe(1 << 20);
    while (state.offset < size) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, size - state.offset), state.offset);
      for (let i = 0; i < read; i++) if (buffer[i] === 10) state.lines += 1;
      state.offset += read;
    }
    return state.lines;
  } finally {
    closeSync(fd);
  }
}

async function benchReplay(cluster, events) {
  const url = await cluster.createDatabase('bench_replay');
  const h = makeHome('replay', url);
  const jsonl = join(h.home, 'records.jsonl');
  writeConfig(h, jsonl);
  const sessions = 20;
  const per = Math.ceil(events / sessions);
  let total = 0;
  for (let s = 0; s < sessions && total < events; s++) {
    const n = Math.min(per, events - total);
    let text = '';
    for (let i = 0; i < n; i++) text += callLines(`bench-${s}`, i);
    writeFileSync(join(h.projects, '-work-p', `bench-${s}.jsonl`), text);
    total += n;
  }
  const start = performance.now();
  const child = spawn(
    process.execPath,
    [cli, 'replay', h.projects, '--adapter', 'agentx-code', '--log-level', 'WARNING'],
    { env: h.env, cwd: h.home, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise((r) => child.on('exit', (code) => r(code)));
  let done = false;
  void exited.then(() => (done = true));
  const jsonlState = { offset: 0, lines: 0 };
  const first = { jsonl: null, pg: null };
  const last = { jsonl: null, pg: null };
  for (let final = false; ;) {
    final = done; // one more look after the replay exited: its closing flush may have landed the last rows
    const t = (performance.now() - start) / 1000;
    const j = countNewlines(jsonl, jsonlState);
    const p = await pgCount(cluster, 'bench_replay');
    if (j > 0 && first.jsonl === null) first.jsonl = t;
    if (p > 0 && first.pg === null) first.pg = t;
    if (j >= total && last.jsonl === null) last.jsonl = t;
    if (p >= total && last.pg === null) last.pg = t;
    if ((last.jsonl !== null && last.pg !== null) || final) break;
    await sleep(100);
  }
  const code = await exited;
  const wall = (performance.now() - start) / 1000;
  if (code !== 0 || last.jsonl === null || last.pg === null)
    throw new Error(
      `replay failed (${code}) or a sink is short (jsonl ` +
        `${jsonlState.lines}, last ${JSON.stringify(last)}):\n` +
        `${stderr}`,
    );
  const [dup] = await cluster.query(
    'bench_replay',
    'SELECT count(*)::int AS n, count(DISTINCT id)::int AS d FROM agentgov.events',
  );
  const result = {
    bench: 'sink-postgres/replay',
    events: total,
    replay_wall_s: +wall.toFixed(2),
    jsonl: { first_s: first.jsonl, last_s: +last.jsonl.toFixed(2), events_per_s: Math.round(total / last.jsonl) },
    postgres: {
      first_s: first.pg,
      last_s: +last.pg.toFixed(2),
      events_per_s: Math.round(total / last.pg),
      rows: dup.n,
      distinct: dup.d,
    },
    ratio: +(last.jsonl / last.pg).toFixed(3),
    load: loadavg().map((l) => +l.toFixed(2)),
  };
  console.log(JSON.stringify(result));
  return result;
}

function outboxState(dbFile) {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const pending = db.prepare('SELECT count(*) AS n, min(enqueued_at) AS oldest FROM sink_outbox').get();
    let bytes = null;
    try {
      bytes = db
        .prepare(
          "SELECT sum(pgsize) AS b FROM dbstat WHERE name IN ('sink_outbox', 'sink_outbox_sink_assessment_idx', " +
            "'sink_outbox_sink_seq_idx')",
        )
        .get().b;
    } catch {
      // dbstat not compiled in
    }
    return {
      pending: pending.n,
      oldest: pending.oldest,
      bytes,
      fileBytes: statSync(dbFile).size + (statSync(`${dbFile}-wal`, { throwIfNoEntry: false })?.size ?? 0),
    };
  } finally {
    db.close();
  }
}

async function benchOutage(cluster, rate, outageS, warmupS) {
  const url = await cluster.createDatabase('bench_outage');
  const h = makeHome('outage', url, ', retry: { initial_ms: 500, max_ms: 5000 }');
  writeConfig(h);
  const capture = join(h.projects, '-work-p', 'live.jsonl');
  writeFileSync(capture, '');
  const watch = spawn(process.execPath, [cli, 'watch', '--no-score', '--log-level', 'WARNING'], {
    env: h.env,
    cwd: h.home,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  watch.stderr.on('data', (c) => (stderr += c));
  await sleep(3000);
  let written = 0;
  const tick = 50;
  const started = performance.now();
  const writer = setInterval(() => {
    const due = Math.floor(((performance.now() - started) / 1000) * rate);
    let text = '';
    for (; written < due; written++) text += callLines('live', written);
    if (text) appendFileSync(capture, text);
  }, tick);
  await sleep(warmupS * 1000);
  const beforeOutage = await pgCount(cluster, 'bench_outage');
  cluster.stop();
  const stoppedAt = performance.now();
  await sleep(outageS * 1000);
  const atRestart = outboxState(h.db);
  const writtenAtRestart = written;
  cluster.start();
  const restartedAt = performance.now();
  const restartIso = new Date().toISOString();
  let drainS = null;
  let firstDeliveryS = null;
  for (;;) {
    const t = (performance.now() - restartedAt) / 1000;
    const state = outboxState(h.db);
    if (firstDeliveryS === null && state.pending < atRestart.pending) firstDeliveryS = +t.toFixed(2);
    // Drained: nothing enqueued before the restart waits any more.
    if (state.pending === 0 || (state.oldest && state.oldest > restartIso)) {
      drainS = +t.toFixed(2);
      break;
    }
    if (t > 300) break;
    await sleep(100);
  }
  clearInterval(writer);
  await sleep(3000);
  if (watch.exitCode === null) {
    watch.kill('SIGTERM');
    await new Promise((r) => watch.on('exit', r));
  }
  if (watch.exitCode !== 0) console.error(`watch exited ${watch.exitCode}:\n${stderr}`);
  const finalPg = await pgCount(cluster, 'bench_outage');
  const result = {
    bench: 'sink-postgres/outage',
    rate_per_s: rate,
    outage_s: +((restartedAt - stoppedAt) / 1000).toFixed(1),
    in_pg_before_outage: beforeOutage,
    outbox_at_restart: {
      rows: atRestart.pending,
      bytes: atRestart.bytes,
      bytes_per_row: atRestart.bytes && atRestart.pending ? Math.round(atRestart.bytes / atRestart.pending) : null,
      system_db_bytes: atRestart.fileBytes,
    },
    events_written_by_restart: writtenAtRestart,
    first_delivery_after_restart_s: firstDeliveryS,
    drain_s: drainS,
    events_written: written,
    in_pg_at_end: finalPg,
    watch_exit_stderr_lines: stderr.trim().split('\n').length,
    load: loadavg().map((l) => +l.toFixed(2)),
  };
  console.log(JSON.stringify(result));
  return result;
}

const cluster = await startPostgres();
try {
  const only = values.only;
  const a = only === 'outage' ? null : await benchReplay(cluster, Number(values.events));
  const b =
    only === 'replay'
      ? null
      : await benchOutage(cluster, Number(values.rate), Number(values.outage), Number(values.warmup));
  console.log('\n| measure | value |\n|---|---|');
  if (a) {
    console.log(
      `| replay of ${a.events} events, jsonl sink | last record at ` +
        `${a.jsonl.last_s} s: ${a.jsonl.events_per_s} events/s |`,
    );
    console.log(
      `| same run, postgres sink | last row at ` +
        `${a.postgres.last_s} s: ${a.postgres.events_per_s} events/s (` +
        `${a.postgres.rows} rows, ${a.postgres.distinct} distinct) |`,
    );
    console.log(`| postgres / jsonl | ${a.ratio} |`);
  }
  if (b) {
    console.log(
      `| outbox after a ${b.outage_s} s outage at ` +
        `${b.rate_per_s} events/s | ${b.outbox_at_restart.rows} rows, ` +
        `${b.outbox_at_restart.bytes ?? '?'} bytes (` +
        `${b.outbox_at_restart.bytes_per_row ?? '?'} B/row) |`,
    );
    console.log(
      `| drain after the restart | first delivery ${b.first_delivery_after_restart_s} s, drained ${b.drain_s} s |`,
    );
  }
} finally {
  cluster.destroy();
}
