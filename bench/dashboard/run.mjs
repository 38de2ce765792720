// bench/dashboard: latency of the dashboard's JSON API over a generated system.db of a million calls
// (the real binary, `agentgov dashboard --db`), and the page's first render in Debian's Chromium.
// Target: p95 ≤ 300 ms for the overview and the filtered sessions list on SQLite.
//
//   npm run build && node bench/dashboard/run.mjs [--calls 1000000] [--requests 40] [--db PATH]
//
// The database is generated once into bench/.work/dashboard (reused while --calls is the same) through
// system.db's own write path. Each request kind is sent --requests times after one warm-up, one at a
// time; the week is the overview's default period (the last seven days of data, ≈ 1/4 of 30 days).
// Prints one JSON object per measurement, then a table and the command that reproduces it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from '../cli-args.mjs';
import { GovernanceDb } from '@agentgov/core';
import { generateGovernanceData, recordGeneratedCalls } from '@agentgov/core/testing';
import { chromium } from 'playwright-core';

const { values } = benchArgs(import.meta.url, {
  options: {
    calls: { type: 'string', default: '1000000' },
    requests: { type: 'string', default: '40' },
    db: { type: 'string' },
  },
});
const calls = Number(values.calls);
const requests = Number(values.requests);
const root = fileURLToPath(new URL('../..', import.meta.url));
const work = join(root, 'bench', '.work', 'dashboard');
mkdirSync(work, { recursive: true });
const db = values.db ?? join(work, `system-${calls}.db`);

if (!existsSync(db)) {
  const started = Date.now();
  const governance = GovernanceDb.open(db);
  // 90 days, so the default week is a quarter of a 30-day month's share of a million calls.
  const written = recordGeneratedCalls(governance, generateGovernanceData({ calls, days: 90, seed: 1 }), 20_000);
  governance.close();
  console.log(JSON.stringify({ generated: written, seconds: (Date.now() - started) / 1000, bytes: statSync(db).size }));
}

const home = mkdtempSync(join(tmpdir(), 'bench-dashboard-'));
const env = { ...process.env, HOME: home, AGENTGOV_HOME: join(home, '.agentgov') };
delete env.AGENTGOV_CONFIG;
const child = spawn(
  process.execPath,
  [join(root, 'cli/dist/src/main.js'), 'dashboard', '--db', db, '--listen', '127.0.0.1:0'],
  { env, stdio: ['ignore', 'ignore', 'pipe'] },
);
const url = await new Promise((resolve, reject) => {
  let err = '';
  child.stderr.on('data', (c) => {
    err += c;
    const m = / on (http:\/\/[^/\s]+)\//.exec(err);
    if (m) resolve(m[1]);
  });
  child.on('exit', (code) => reject(new Error(`dashboard exited ${code}: ${err}`)));
});

const facets = await (await fetch(`${url}/api/facets`)).json();
const lastDay = facets.last_call.slice(0, 10);
const since = new Date(Date.parse(lastDay) - 6 * 86_400_000).toISOString().slice(0, 10);
const week = `since=${since}&until=${lastDay}`;
const kinds = {
  'overview (week)': `/api/overview?${week}`,
  'overview (week, one agent)': `/api/overview?${week}&agent=codex`,
  'sessions (week, deny)': `/api/sessions?${week}&action=deny`,
  'sessions (week, agent + level + text)': `/api/sessions?${week}&agent=claude-code&level=high,critical&q=aws`,
  'sessions (week, page 10)': `/api/sessions?${week}&page=10`,
  'session timeline': null,
  'call evidence': null,
};
const first = await (await fetch(`${url}/api/sessions?${week}&action=deny&page_size=1`)).json();
const session = first.rows[0];
kinds['session timeline'] = `/api/sessions/${session.framework}/${session.session_id}`;
const timeline = await (await fetch(`${url}${kinds['session timeline']}`)).json();
kinds['call evidence'] = `/api/calls/${encodeURIComponent(timeline.calls[0].id)}`;

/**
 * The server's CPU time so far (user + system, ms), from /proc: it moves far less with the machine's load than wall
 * time.
 */
const cpuMs = () => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const rows = [];
for (const [kind, path] of Object.entries(kinds)) {
  await (await fetch(`${url}${path}`)).arrayBuffer();
  const times = [];
  const cpuBefore = cpuMs();
  for (let i = 0; i < requests; i += 1) {
    const t = performance.now();
    const response = await fetch(`${url}${path}`);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    times.push(performance.now() - t);
  }
  const cpu = (cpuMs() - cpuBefore) / requests;
  times.sort((a, b) => a - b);
  const row = {
    kind,
    path,
    requests,
    p50_ms: +percentile(times, 50).toFixed(1),
    p95_ms: +percentile(times, 95).toFixed(1),
    max_ms: +times.at(-1).toFixed(1),
    server_cpu_ms: +cpu.toFixed(1),
  };
  console.log(JSON.stringify(row));
  rows.push(row);
}

const browser = await chromium.launch({
  executablePath: process.env.AGENTGOV_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const renders = [];
for (let i = 0; i < 5; i += 1) {
  const page = await browser.newPage();
  const t = performance.now();
  await page.goto(`${url}/`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  renders.push(performance.now() - t);
  await page.close();
}
await browser.close();
renders.sort((a, b) => a - b);
const render = {
  kind: 'page first render (overview, Chromium)',
  runs: renders.length,
  p50_ms: +percentile(renders, 50).toFixed(1),
  max_ms: +renders.at(-1).toFixed(1),
};
console.log(JSON.stringify(render));
child.kill('SIGTERM');

const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(
  `\n${calls.toLocaleString('en-US')} calls, ${(statSync(db).size / 2 ** 20).toFixed(0)} MiB system.db, load ${load}`,
);
console.log('| request | p50 ms | p95 ms | max ms | server CPU ms per request |\n|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.kind} | ${r.p50_ms} | ${r.p95_ms} | ${r.max_ms} | ${r.server_cpu_ms} |`);
console.log(`| ${render.kind} | ${render.p50_ms} | — | ${render.max_ms} | — |`);
console.log(`\nreproduce: npm run build && node bench/dashboard/run.mjs --calls ${calls} --requests ${requests}`);
