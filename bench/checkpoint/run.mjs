// checkpoint on expressjs/express: a one-line change in a library function, `checkpoint` (lint + tests, no commit)
// against `npm test` on the same tree in the same run, interleaved; then a breaking change, reported with the
// failing tests named. Prints one JSON object per measurement, then a table.
//
//   npx tsc -b && node bench/checkpoint/run.mjs [--rounds 3]
//
// The tree is express at EXPRESS_SHA, extracted from the mirror into bench/.work/checkpoint/express with its
// devDependencies installed there (npm install, once); it is never committed.
import { execFileSync, execSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from '../cli-args.mjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ensureGitRepo, mirrorOf, WORK_DIR } from '../recon/trees.mjs';

const EXPRESS_SHA = 'a3714473feb3d2908add734d340e7755fd85e0a3';
const MAIN = fileURLToPath(new URL('../../cli/dist/src/main.js', import.meta.url));
const FILE = 'lib/response.js';
// res.attachment(filename): one line of a library function
const ORIGINAL_LINE = "  this.set('Content-Disposition', contentDisposition.create(name));";
/** Same behaviour, one line changed (two spellings, so every round is a new edit). */
const HARMLESS_LINES = [
  "  this.set('Content-Disposition', contentDisposition.create(name, { type: 'attachment' }));",
  "  this.set('Content-Disposition', contentDisposition.create(name, {}));",
];
/** The header says inline instead of attachment: res.attachment's tests fail. */
const BREAKING_LINE = "  this.set('Content-Disposition', contentDisposition.create(name, { type: 'inline' }));";

const { values } = benchArgs(import.meta.url, { options: { rounds: { type: 'string', default: '3' } } });
const rounds = Number(values.rounds);

function tree() {
  const dir = join(WORK_DIR, 'checkpoint', 'express');
  if (!existsSync(join(dir, 'package.json'))) {
    mkdirSync(dir, { recursive: true });
    execSync(
      `git -C ${JSON.stringify(mirrorOf('expressjs/express'))} archive ` +
        `${EXPRESS_SHA} | tar -x -C ${JSON.stringify(dir)}`,
    );
  }
  if (!existsSync(join(dir, 'node_modules', 'mocha')))
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, stdio: 'inherit' });
  ensureGitRepo(dir);
  return dir;
}

function setLine(dir, line) {
  const path = join(dir, FILE);
  const text = readFileSync(path, 'utf8');
  const current = [ORIGINAL_LINE, ...HARMLESS_LINES, BREAKING_LINE].find((l) => text.includes(`${l}\n`));
  if (!current) throw new Error(`${FILE} does not hold the expected line any more`);
  writeFileSync(path, text.replace(`${current}\n`, `${line}\n`));
}

function npmTest(dir) {
  const started = performance.now();
  // `--exit`: in this checkout some suites leave handles open after mocha reports, so mocha would not exit by itself
  const run = spawnSync('npm', ['test', '--silent', '--', '--exit'], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const ms = performance.now() - started;
  const passing = /(\d+) passing/.exec(run.stdout)?.[1];
  const failing = /(\d+) failing/.exec(run.stdout)?.[1] ?? '0';
  return { ms, passing: Number(passing), failing: Number(failing), status: run.status };
}

async function connect(dir) {
  const home = mkdtempSync(join(tmpdir(), 'bench-checkpoint-home-'));
  const env = {
    ...process.env,
    HOME: home,
    AGENTGOV_HOME: join(home, '.agentgov'),
    AGENTX_HOME: join(home, '.agentx'),
  };
  delete env.AGENTGOV_CONFIG;
  const client = new Client({ name: 'bench-checkpoint', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'serve', '--repo', dir],
      env,
      stderr: 'inherit',
    }),
  );
  return client;
}

async function checkpoint(client, args) {
  for (;;) {
    const started = performance.now();
    const result = await client.callTool(
      { name: 'checkpoint', arguments: { changed_files: [FILE], ...args } },
      undefined,
      { timeout: 1_800_000 },
    );
    const ms = performance.now() - started;
    const data = result.structuredContent;
    if (data?.error?.code === 'E_INDEX_NOT_READY') {
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    if (data?.error) throw new Error(`checkpoint failed: ${data.error.code} ${data.error.message}`);
    return { ms, data, text: result.content[0].text };
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Waits until the test scheduler is idle and the stored coverage is fresh (built, or refreshed after an edit). */
async function settled(client) {
  const started = performance.now();
  for (;;) {
    const result = await client.callTool(
      { name: 'blast_radius', arguments: { changed_files: [FILE], max_hops: 0 } },
      undefined,
      { timeout: 600_000 },
    );
    const impact = result.structuredContent?.test_impact;
    if (
      impact?.coverage === 'fresh' &&
      impact.tests > 0 &&
      impact.scheduler?.state === 'idle' &&
      impact.scheduler.queued_files === 0
    )
      return { ms: performance.now() - started, tests: impact.tests };
    if (impact?.scheduler?.state === 'failed')
      throw new Error(`the test scheduler failed: ${JSON.stringify(impact.scheduler.error)}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

function row(what, round, ms, data) {
  const tests = data.tests ?? { passed: 0, failed: 0, hops: [], cached: { used: 0 } };
  const out = {
    bench: what,
    round,
    ms: Math.round(ms),
    ok: data.ok,
    selection: tests.selection,
    tests_passed: tests.passed,
    tests_failed: tests.failed,
    cached: tests.cached.used,
    live_files: tests.hops.reduce((n, h) => n + (h.commands.length ? h.files.length : 0), 0),
    lint_errors: data.lint?.errors,
    linters: data.lint?.linters.map((l) => `${l.name}:${l.status}`).join(','),
    durations_ms: data.durations_ms,
  };
  console.log(JSON.stringify(out));
  return out;
}

const dir = tree();
const client = await connect(dir);
const rows = [];
try {
  setLine(dir, ORIGINAL_LINE);
  // Waits out the first index build and fills the lint cache.
  await checkpoint(client, { autofix: false, tests: false });
  await checkpoint(client, { autofix: false, lint: false }); // a read-write checkpoint starts the test scheduler
  const warm = await settled(client); // per-test coverage of the whole suite, built in the background
  console.log(
    JSON.stringify({ bench: 'coverage build (background scheduler)', ms: Math.round(warm.ms), tests: warm.tests }),
  );
  const live = [];
  const cached = [];
  const npm = [];
  for (let round = 0; round < rounds; round++) {
    setLine(dir, HARMLESS_LINES[round % 2]);
    const first = await checkpoint(client, {});
    live.push(row('checkpoint right after the edit', round, first.ms, first.data));
    await settled(client);
    const again = await checkpoint(client, {});
    cached.push(row('checkpoint after the scheduler refreshed', round, again.ms, again.data));
    // the whole suite on a quiet machine: the background scheduler idle, as for the checkpoint above
    const quiet = await settled(client);
    const full = npmTest(dir);
    npm.push(full);
    console.log(
      JSON.stringify({
        bench: 'npm test',
        round,
        ms: Math.round(full.ms),
        passing: full.passing,
        failing: full.failing,
        waited_for_scheduler_ms: Math.round(quiet.ms),
      }),
    );
  }
  const npmMs = median(npm.map((r) => r.ms));
  const liveMs = median(live.map((r) => r.ms));
  const cachedMs = median(cached.map((r) => r.ms));
  rows.push({
    what: 'checkpoint right after the edit (lint + distance-0 tests live)',
    ms: liveMs,
    tests: live[0].tests_passed + live[0].tests_failed,
    ratio: liveMs / npmMs,
  });
  rows.push({
    what: 'checkpoint once the scheduler refreshed (lint + fresh results)',
    ms: cachedMs,
    tests: cached[0].tests_passed + cached[0].tests_failed,
    ratio: cachedMs / npmMs,
  });
  rows.push({
    what: 'npm test -- --exit (mocha, whole suite)',
    ms: npmMs,
    tests: npm[0].passing + npm[0].failing,
    ratio: 1,
  });

  setLine(dir, BREAKING_LINE);
  const broken = await checkpoint(client, {});
  const failures = broken.data.tests?.failures ?? [];
  console.log(
    JSON.stringify({
      bench: 'breaking change',
      ms: Math.round(broken.ms),
      ok: broken.data.ok,
      failed: broken.data.tests?.failed,
      failing_tests: failures.map((f) => f.id),
    }),
  );
  console.log(`\n${broken.text.split('\n').slice(0, 30).join('\n')}\n`);
} finally {
  setLine(dir, ORIGINAL_LINE);
  await client.close();
}

console.log(
  `express ${EXPRESS_SHA.slice(0, 8)}, one-line change in ` +
    `${FILE} (res.attachment), median of ` +
    `${rounds} interleaved rounds:`,
);
console.log('| run | wall ms | tests run | ratio to npm test |\n|---|---|---|---|');
for (const r of rows) console.log(`| ${r.what} | ${Math.round(r.ms)} | ${r.tests} | ${r.ratio.toFixed(3)} |`);
