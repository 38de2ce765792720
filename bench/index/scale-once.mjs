#!/usr/bin/env node
// One scale measurement in a fresh process, printed as one JSON line (see run.mjs --scale).
// usage: node bench/index/scale-once.mjs build|cold|restart <repo-dir> <file-list> [recon-calls]
//   build:   cold index (no .agentgov/), then recon_scout and <recon-calls> recon calls through a real
//            MCP session; CPU, wall, stage times, index.db size and peak RSS through every step.
//   cold:    the build step alone, with the same settings (serve's heap growth and memory target).
//   restart: re-open the index built before, then the first recon calls (what a restarted server pays).
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { bundledPluginsOf, createPluginHost, loadConfig, silentLogger } from '@agentgov/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { benchArgs } from '../cli-args.mjs';
import {
  applyHeapGrowth,
  openRepositoryIndex,
  QUIET_COLLECT_MS,
  setMemoryTarget,
  ToolServer,
} from '../../server/dist/src/index.js';

// --help and bad options as every bench script; the arguments are checked before the plugins load: with no
// repository that load did not end (a bare run hung instead of saying what it needs).
const { positionals } = benchArgs(import.meta.url, { options: {}, allowPositionals: true });
const [mode, repo, fileList, callsArg] = positionals;
const CALLS = Number(callsArg ?? 100);
if (!['build', 'cold', 'restart'].includes(mode) || !repo || !fileList || !Number.isInteger(CALLS) || CALLS < 0) {
  console.error(
    'scale-once: expected build|cold|restart, a repository, a file list and optionally a number of recon calls\n' +
      'run `node bench/index/scale-once.mjs --help` for its usage',
  );
  process.exit(2);
}
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const cpuMs = (start) => {
  const usage = process.cpuUsage(start);
  return Math.round((usage.user + usage.system) / 1000);
};
const rssMb = () => Math.round(process.memoryUsage.rss() / 1024 / 1024);
const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

const loaded = loadConfig({ cwd: repo });
const host = await createPluginHost({
  loaded,
  bundled: bundledPluginsOf(join(ROOT, 'cli/package.json')),
  resolveFrom: [join(ROOT, 'cli')],
  host: 'server',
  logger: silentLogger,
});
const languages = host.registries.languages.values();
// The heap as `agentgov serve` sets it from the configuration before it opens the index.
applyHeapGrowth(loaded.config.server.heap_growth_percent);
setMemoryTarget(loaded.config.server.memory_target_mb);
// The index's memory settings as serve passes them (server.index.*).
const settings = loaded.config.server.index;
/** Quiet time after the recon calls before the idle RSS is read: past the quiet collection and the graph's keep. */
const IDLE_MS = Math.max(QUIET_COLLECT_MS, settings.graph_keep_seconds * 1000) + 10_000;
const indexOptions = {
  root: repo,
  languages,
  logger: silentLogger,
  textCacheChars: settings.text_cache_mb * 1024 * 1024,
  knownNamesMax: settings.known_names_max,
  graphKeepMs: settings.graph_keep_seconds * 1000,
};

function storeBytes() {
  const dir = join(repo, '.agentgov');
  let total = 0;
  const parts = {};
  for (const name of readdirSync(dir)) {
    const size = statSync(join(dir, name)).size;
    parts[name] = size;
    total += size;
  }
  return { total, parts };
}

/**
 * Recon tasks drawn from the index itself, the same on every run of the same tree: every n-th
 * documented function or class (by def_uid order), asked for by its docstring's first sentence.
 * The documented definitions' uids come from one narrow query and only the chosen definitions are read: every
 * definition of the 7,642-file tree as objects (`definitions({})`) took this process from ~500 to ~600 MB between
 * recon_scout and the first recon, the bench's own memory counted as the server's (bench/index/RESULTS.md).
 */
function tasksOf(index, count) {
  const uids = index.db.$client
    .prepare(
      `SELECT def_uid FROM definitions WHERE kind IN ('function', 'class', 'method') ` +
        `AND docstring IS NOT NULL AND docstring <> ''`,
    )
    .pluck()
    .all()
    .sort((a, b) => (a < b ? -1 : 1));
  const step = Math.max(1, Math.floor(uids.length / count));
  const tasks = [];
  for (let i = 0; i < uids.length && tasks.length < count; i += step) {
    const def = index.definition(uids[i]);
    const sentence = def.docstring
      .split(/\.\s|\n\n/)[0]
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 160);
    tasks.push(`Fix the bug where ${sentence.toLowerCase()} (${def.name})`);
  }
  return tasks;
}

async function session(index) {
  const toolServer = new ToolServer({
    repoRoot: repo,
    index,
    host,
    config: loaded.config,
    logger: silentLogger,
    devMode: false,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await toolServer.createSession().connect(serverSide);
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(clientSide);
  const call = async (name, args) => {
    // Each request reaches a real server as its own event (a stdin read): let the event loop turn between calls, as
    // it does there. Over the in-memory transport alone a whole run of calls is one chain of promise jobs, in which
    // no timer fires (the server's memory trim, its cache expiry, this bench's RSS sampler).
    await new Promise((resolve) => setImmediate(resolve));
    const start = performance.now();
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 900_000 });
    if (result.isError) throw new Error(`${name} failed: ${result.content[0].text}`);
    return { ms: Math.round(performance.now() - start), result };
  };
  return { call, close: () => Promise.all([client.close(), toolServer.close()]) };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

// RSS sampled every 100 ms: maxRSS is the process's peak, the samples say in which step it came.
let sampledPeak = 0;
const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, rssMb())), 100);
const stepPeak = () => {
  const peak = Math.max(sampledPeak, rssMb());
  sampledPeak = 0;
  return peak;
};

if (mode === 'build' || mode === 'cold') {
  rmSync(join(repo, '.agentgov'), { recursive: true, force: true });
  const cpu = process.cpuUsage();
  const start = performance.now();
  const index = await openRepositoryIndex(indexOptions);
  const phases = {};
  // CPU (all threads) when each phase began: on a loaded machine the stage CPU times say more than wall.
  const phasesCpu = {};
  index.on('progress', ({ phase }) => {
    phases[phase] ??= Math.round(performance.now() - start);
    phasesCpu[phase] ??= cpuMs(cpu);
  });
  await index.ready;
  const build = {
    ms: Math.round(performance.now() - start),
    cpu_ms: cpuMs(cpu),
    phases,
    phases_cpu: { ...phasesCpu, ready: cpuMs(cpu) },
    peak_rss_mb: stepPeak(),
  };
  // Each step also goes to stderr as it ends, so a run cut short still leaves its figures.
  console.error(JSON.stringify({ step: 'build', ...index.stats(), build, store: storeBytes() }));
  if (mode === 'cold') {
    console.log(JSON.stringify({ mode, ...build }));
    await index.close();
    process.exit(0);
  }
  writeFileSync(
    fileList,
    index
      .files()
      .map((file) => file.path)
      .join('\n') + '\n',
  );
  const stats = index.stats();
  const { call, close } = await session(index);
  const scoutCpu = process.cpuUsage();
  const scout = await call('recon_scout', {});
  const scoutRow = { first_ms: scout.ms, cpu_ms: cpuMs(scoutCpu), peak_rss_mb: stepPeak() };
  console.error(JSON.stringify({ step: 'scout', ...scoutRow }));
  const tasks = tasksOf(index, CALLS);
  const times = [];
  const rssAfter = [];
  const reconCpu = process.cpuUsage();
  for (const task of tasks) {
    const { ms } = await call('recon', { task });
    times.push(ms);
    if (times.length % 10 === 0) {
      rssAfter.push(rssMb());
      console.error(JSON.stringify({ step: 'recon', calls: times.length, last_ms: ms, rss_mb: rssMb() }));
    }
  }
  const first = times[0];
  const sorted = [...times].sort((a, b) => a - b);
  const recon = {
    calls: times.length,
    first_ms: first,
    p50_ms: percentile(sorted, 0.5),
    p95_ms: percentile(sorted, 0.95),
    max_ms: sorted.at(-1),
    cpu_ms: cpuMs(reconCpu),
    rss_every_10_mb: rssAfter,
    peak_rss_mb: stepPeak(),
  };
  // What the server holds once the agent goes quiet, the session still open.
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const idle = { after_ms: IDLE_MS, rss_mb: rssMb() };
  console.error(JSON.stringify({ step: 'idle', ...idle }));
  await close();
  await index.close();
  clearInterval(sampler);
  console.log(
    JSON.stringify({
      mode,
      ...stats,
      build,
      scout: scoutRow,
      recon,
      idle,
      store: storeBytes(),
      peak_rss_mb: peakRssMb(),
      tasks: tasks.slice(0, 3),
    }),
  );
} else {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const index = await openRepositoryIndex(indexOptions);
  await index.ready;
  const reopen = { ms: Math.round(performance.now() - start), cpu_ms: cpuMs(cpu), reparsed: index.progress().total };
  const { call, close } = await session(index);
  const tasks = tasksOf(index, 10);
  const times = [];
  const cpus = [];
  for (const task of tasks) {
    const before = process.cpuUsage();
    times.push((await call('recon', { task })).ms);
    cpus.push(cpuMs(before));
  }
  await close();
  await index.close();
  clearInterval(sampler);
  console.log(
    JSON.stringify({
      mode,
      reopen,
      first_recon_ms: times[0],
      first_recon_cpu_ms: cpus[0],
      next_recon_ms: times.slice(1),
      next_recon_cpu_ms: cpus.slice(1),
      store: storeBytes(),
      peak_rss_mb: peakRssMb(),
    }),
  );
}
