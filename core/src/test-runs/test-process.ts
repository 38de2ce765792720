import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestCoverage } from '../contracts/test-runner.js';

const OUTPUT_TAIL = 64 * 1024;

export interface TestProcessOptions {
  cwd: string;
  env?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** 0..19; applied with `os.setPriority` right after spawn. */
  niceness?: number;
}

export interface TestProcessResult {
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** The tail of stdout and stderr interleaved. */
  output: string;
}

/**
 * Runs one test process: lowered priority, killed (with its process group) on abort or timeout.
 * Rejects with an `AbortError` when `signal` aborts, and with the spawn error when the command
 * cannot start (ENOENT: the runner is not installed).
 */
export function runTestProcess(
  command: string,
  args: string[],
  options: TestProcessOptions,
): Promise<TestProcessResult> {
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    if (options.signal?.aborted) return reject(abortError());
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let timedOut = false;
    const append = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.length > OUTPUT_TAIL * 2) output = output.slice(-OUTPUT_TAIL);
    };
    child.stdout.on('data', append);
    child.stderr.on('data', append);
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const onAbort = () => kill();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = options.timeoutMs ? setTimeout(() => ((timedOut = true), kill()), options.timeoutMs) : undefined;
    if (options.niceness && child.pid) {
      try {
        setPriority(child.pid, options.niceness);
      } catch {
        // Lowering priority is best effort (some containers forbid it); the run goes on at normal priority.
      }
    }
    child.on('error', (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (options.signal?.aborted) return reject(abortError());
      resolvePromise({
        exitCode: code,
        timedOut,
        durationMs: performance.now() - started,
        output: output.slice(-OUTPUT_TAIL),
      });
    });
  });
}

function abortError(): Error {
  const error = new Error('the test run was cancelled');
  error.name = 'AbortError';
  return error;
}

/** A private temp directory for one run's reports; removed by `dispose`. */
export function makeRunDirectory(): { path: string; dispose(): void } {
  const path = mkdtempSync(join(tmpdir(), 'agentgov-testrun-'));
  return { path, dispose: () => rmSync(path, { recursive: true, force: true }) };
}

/** Merges the collector's `<pid>-<n>.json` files of one run (several processes, several flushes). */
export function readCoverageDirectory(dir: string): TestCoverage[] {
  if (!existsSync(dir)) return [];
  const merged = new Map<string, { scope: 'test' | 'file'; id: string; files: Map<string, Set<number>> }>();
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const entries = JSON.parse(readFileSync(join(dir, name), 'utf8')) as TestCoverage[];
    for (const entry of entries) {
      const key = `${entry.scope}\0${entry.id}`;
      let target = merged.get(key);
      if (!target) merged.set(key, (target = { scope: entry.scope, id: entry.id, files: new Map() }));
      for (const covered of entry.files) {
        let lines = target.files.get(covered.file);
        if (!lines) target.files.set(covered.file, (lines = new Set()));
        for (const line of covered.lines) lines.add(line);
      }
    }
  }
  return [...merged.values()].map((entry) => ({
    scope: entry.scope,
    id: entry.id,
    files: [...entry.files].map(([file, lines]) => ({ file, lines: [...lines].sort((a, b) => a - b) })),
  }));
}
