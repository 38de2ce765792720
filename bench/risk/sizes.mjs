#!/usr/bin/env node
// Risk engine cost by command size: the engine's time (wall and CPU) on shell commands of 1 KB
// to 1 MB in several shapes, with the verdict and the process's peak RSS.
// Then the cost of a call that runs a file the gate reads (a script of 4 KB to 64 KB).
// Usage: npx tsc -b cli && node bench/risk/sizes.mjs [--runs N] [--sizes 1024,4096,...]
import path from 'node:path';
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const runs = Number(option('--runs', '7'));
const sizes = option('--sizes', '1024,4096,16384,65536,262144,1048576').split(',').map(Number);
const { createRiskEngine } = await import(path.join(here, '../../cli/dist/src/risk/engine.js'));
const engine = await createRiskEngine({ home: '/home/user' });
const event = (command) => ({
  id: 'b',
  framework: 'bench',
  session_id: 'b',
  timestamp: '2026-01-01T00:00:00Z',
  cwd: '/home/user/project',
  tool_name: 'Bash',
  canonical_tool: 'shell',
  arguments: { command },
});

/** Each shape builds a command of about `n` characters that ends with a dangerous part. */
const repeat = (unit, n, tail) => unit.repeat(Math.max(1, Math.floor((n - tail.length) / unit.length))) + tail;
const shapes = {
  padded: (n) => `echo ${'x'.repeat(Math.max(1, n - 20))}; rm -rf ~`,
  heredoc: (n) => `cat > notes.md <<'EOF'\n${repeat('| a | b | `c` $d; e |\n', n - 40, '')}EOF\nrm -rf ~`,
  'many-parts': (n) => repeat('ls; ', n, 'rm -rf ~'),
  'quoted-parts': (n) => repeat('echo "a b"; ', n, 'rm -rf ~'),
  pipeline: (n) => repeat('a | ', n, 'sh'),
  'quoted-pipeline': (n) => repeat('a "x" | ', n, 'sh'),
};

for (let i = 0; i < 20; i += 1) engine.assess(event('ls -la; echo "a" | grep -v b && rm -rf ~'));
console.log(
  `risk engine cost by size: ${runs} runs per cell, median; node ${process.version}, ${os.cpus().length} CPUs, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log('shape            size(B)   wall ms    cpu ms  verdict                         peak RSS');
const rows = [];
for (const [shape, build] of Object.entries(shapes)) {
  for (const size of sizes) {
    const command = build(size);
    const wall = [];
    const cpu = [];
    let answer;
    for (let r = 0; r < runs; r += 1) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      answer = engine.assess(event(command));
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      // tree-sitter frees native memory only when the event loop turns.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const row = {
      shape,
      bytes: command.length,
      wall_ms: median(wall),
      cpu_ms: median(cpu),
      action: answer.action,
      reason_code: answer.reason_code,
      peak_rss_mb: process.resourceUsage().maxRSS / 1024,
    };
    rows.push(row);
    console.log(
      `${shape.padEnd(15)} ${String(row.bytes).padStart(8)} ` +
        `${row.wall_ms.toFixed(1).padStart(9)} ` +
        `${row.cpu_ms.toFixed(1).padStart(9)}  ` +
        `${`${row.action} ${row.reason_code}`.padEnd(31)} ` +
        `${row.peak_rss_mb.toFixed(0).padStart(5)} MB`,
    );
  }
}
// Write, then run: the cost of a call that runs a file the gate reads (`bash scripts/build.sh`),
// by the file's size. The script is a build script's usual mix (comments, tests, loops, copies);
// one byte over 64 KiB it is not read, and the answer is `ask` (runs_file).
const project = mkdtempSync(path.join(os.tmpdir(), 'risk-run-file-'));
mkdirSync(path.join(project, 'scripts'));
const block = [
  '# Build one module: copy its sources, compile, and record the result.',
  'if [ -d "src/$m" ]; then',
  '  mkdir -p "build/$m" && cp -r "src/$m/." "build/$m/"',
  '  for f in build/"$m"/*.c; do cc -O2 -c "$f" -o "${f%.c}.o" || exit 1; done',
  'fi',
  'echo "built $m" >> build/log.txt',
  '',
].join('\n');
const runFileRows = [];
for (const size of [4096, 16384, 65536, 65537]) {
  // Whole blocks, then a comment line pads the file to the exact size.
  const head = `#!/bin/sh\nset -eu\n${block.repeat(Math.floor((size - 40) / block.length))}`;
  const body = `${head}# ${'-'.repeat(Math.max(0, size - head.length - 3))}\n`;
  writeFileSync(path.join(project, 'scripts/build.sh'), body);
  const call = { ...event('bash scripts/build.sh'), cwd: project };
  const wall = [];
  const cpu = [];
  let answer;
  for (let r = 0; r < runs; r += 1) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    answer = engine.assess(call);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    await new Promise((resolve) => setImmediate(resolve));
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const row = {
    shape: 'run-a-file',
    bytes: size,
    wall_ms: median(wall),
    cpu_ms: median(cpu),
    action: answer.action,
    reason_code: answer.reason_code,
  };
  runFileRows.push(row);
  console.log(
    `${row.shape.padEnd(15)} ${String(row.bytes).padStart(8)} ` +
      `${row.wall_ms.toFixed(1).padStart(9)} ` +
      `${row.cpu_ms.toFixed(1).padStart(9)}  ` +
      `${`${row.action} ${row.reason_code}`.padEnd(31)}`,
  );
}
// The same through the real gate (`agentgov gate --stdin`, watch down: assessed in process), a
// 64 KB script run against `ls`, interleaved so that machine load affects both alike.
const gateHome = mkdtempSync(path.join(os.tmpdir(), 'risk-run-file-home-'));
const gateEnv = {
  ...process.env,
  HOME: gateHome,
  AGENTGOV_HOME: path.join(gateHome, '.agentgov'),
  AGENTX_HOME: path.join(gateHome, '.agentx'),
};
delete gateEnv.AGENTGOV_CONFIG;
mkdirSync(gateEnv.AGENTGOV_HOME, { recursive: true, mode: 0o700 });
const agentgov = path.join(here, '../../cli/bin/agentgov.js');
const hook = (command) =>
  JSON.stringify({
    session_id: 'b',
    transcript_path: '',
    cwd: project,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 't',
  });
const gateTimes = { 'bash scripts/build.sh': [], ls: [] };
let gateAnswer = '';
for (let r = 0; r < Math.max(runs, 5) + 1; r += 1) {
  for (const command of Object.keys(gateTimes)) {
    const t0 = performance.now();
    const out = spawnSync(process.execPath, [agentgov, 'gate', '--stdin', '--format', 'claude-code'], {
      env: gateEnv,
      cwd: project,
      input: hook(command),
      encoding: 'utf8',
    });
    if (r > 0) gateTimes[command].push(performance.now() - t0);
    if (command !== 'ls')
      gateAnswer =
        out.stdout.trim() === ''
          ? 'allow (no decision)'
          : (JSON.parse(out.stdout).hookSpecificOutput?.permissionDecision ?? 'allow');
  }
}
rmSync(gateHome, { recursive: true, force: true });
rmSync(project, { recursive: true, force: true });
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const file64 = runFileRows.find((r) => r.bytes === 65536);
console.log(
  `\nrun-a-file, 64 KB script (bash scripts/build.sh): engine wall ` +
    `${file64.wall_ms.toFixed(1)} ms, CPU ` +
    `${file64.cpu_ms.toFixed(1)} ms, ${file64.action} ` +
    `${file64.reason_code}`,
);
console.log(
  `gate (agentgov gate --stdin, watch down), median of ` +
    `${gateTimes.ls.length}: run-a-file 64 KB ` +
    `${med(gateTimes['bash scripts/build.sh']).toFixed(0)} ms (` +
    `${gateAnswer}), ls ${med(gateTimes.ls).toFixed(0)} ms`,
);
const at64 = rows.filter((r) => r.bytes >= 60000 && r.bytes <= 70000);
console.log(
  `\nat 64 KB: max wall ${Math.max(...at64.map((r) => r.wall_ms)).toFixed(1)} ` +
    `ms, max CPU ${Math.max(...at64.map((r) => r.cpu_ms)).toFixed(1)} ms; peak ` +
    `RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
);
console.log('reproduce: npx tsc -b cli && node bench/risk/sizes.mjs');
