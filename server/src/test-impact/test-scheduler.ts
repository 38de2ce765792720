import { AgentgovError, type Logger, type TestRunner } from '@agentgov/core';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { CoverageStore } from './coverage-store.js';

/** The hash recorded for a file that changed while its tests ran: matches no content, so always stale. */
export const CHANGED_DURING_RUN = 'changed-during-run';

function modifiedSince(file: string, since: number): boolean {
  try {
    return statSync(file).mtimeMs >= since;
  } catch {
    return false; // gone: currentHash answers null and the store skips it, as before
  }
}

export type SchedulerState = 'starting' | 'building' | 'refreshing' | 'idle' | 'failed' | 'cancelled';

export interface SchedulerStatus {
  state: SchedulerState;
  runner: string | null;
  /** What it is doing now, for a human. */
  activity: string;
  queued_files: number;
  /** Test files run so far out of those the current job holds. */
  progress: { done: number; total: number } | null;
  last_run: {
    kind: 'build' | 'refresh';
    at: string;
    files: number;
    tests: number;
    failed: number;
    duration_ms: number;
  } | null;
  /** Why it stopped: a missing runner or a broken test config (with the code a tool answers). */
  error: { code: string; message: string; runner: string | null } | null;
  niceness: number;
}

export interface TestSchedulerOptions {
  root: string;
  store: CoverageStore;
  runners: readonly TestRunner[];
  logger: Logger;
  /** Child-process niceness (0 normal .. 19 lowest; default 10). */
  niceness?: number;
  /** Kill one test process after this long (default 10 minutes). */
  timeoutMs?: number;
  /** Test files run per process when (re)building, so progress shows and a cancel loses little (default 25). */
  batchSize?: number;
}

/**
 * The background test scheduler: builds per-test coverage for the suite, then re-runs the tests
 * whose coverage touches changed files. One test process at a time, at low priority; cancellable;
 * it only writes the store between runs, so queries never wait on it.
 */
export class TestScheduler {
  #state: SchedulerState = 'starting';
  #runner: TestRunner | undefined;
  #error: AgentgovError | undefined;
  #queue: string[] = [];
  #kind: 'build' | 'refresh' = 'build';
  #progress: { done: number; total: number } | null = null;
  #lastRun: SchedulerStatus['last_run'] = null;
  #abort: AbortController | undefined;
  #pumping: Promise<void> | undefined;
  #started: Promise<void>;
  #closed = false;
  /** Foreground runs (a checkpoint's tests) holding the background back; see `hold`. */
  #holds = 0;
  #held: { promise: Promise<void>; release: () => void } | undefined;
  /** The running batch was stopped for a hold: it goes back to the front of the queue. */
  #requeue = false;

  constructor(private readonly options: TestSchedulerOptions) {
    this.#started = this.#start();
  }

  /** Resolves once the runner is chosen and the first job queued (or the scheduler failed). */
  get started(): Promise<void> {
    return this.#started;
  }

  runner(): TestRunner | undefined {
    return this.#runner;
  }

  /** The missing-runner / broken-config error tools answer with, once known. */
  error(): AgentgovError | undefined {
    return this.#error;
  }

  async #start(): Promise<void> {
    const { root, runners } = this.options;
    try {
      for (const runner of runners) {
        if (await runner.detect(root)) {
          this.#runner = runner;
          break;
        }
      }
      if (!this.#runner) {
        const names = runners.map((r) => r.name).join(', ') || 'none registered';
        throw new AgentgovError(
          'E_TEST_RUNNER_MISSING',
          `no test runner recognises ${root} (tried: ` +
            `${names}); add its config (.mocharc.*, vitest.config.*, pytest.ini/pyproject.toml) ` +
            `or install a test-runner plugin`,
          { runner: null, tried: runners.map((r) => r.name) },
        );
      }
      const files = await this.#runner.discover(root);
      if (!this.options.store.hasRunnerCoverage()) this.#enqueue(files, 'build');
      else this.refreshStale();
    } catch (error) {
      this.#fail(error);
    }
  }

  #fail(error: unknown): void {
    this.#error =
      error instanceof AgentgovError
        ? error
        : new AgentgovError(
            'E_TEST_CONFIG_INVALID',
            `${this.#runner?.name ?? 'test runner'}: ${(error as Error).message}`,
            { runner: this.#runner?.name ?? null },
          );
    this.#state = 'failed';
    this.#queue = [];
    this.options.logger.warn('test scheduler stopped', { code: this.#error.code, message: this.#error.message });
  }

  /** Queues the test files whose stored coverage touches a file whose content changed since. */
  refreshStale(): void {
    if (this.#state === 'failed' || !this.#runner) return;
    this.options.store.forgetHashes();
    const stale = this.options.store.staleFiles();
    const testFiles = new Set<string>();
    for (const [path, ids] of stale) {
      for (const id of ids) {
        if (id.startsWith('load:')) continue;
        const test = this.options.store.testCase(id);
        if (test) testFiles.add(test.file);
      }
      if (this.#runner.isTestFile(this.options.root, path)) testFiles.add(path);
    }
    if (testFiles.size) this.#enqueue([...testFiles].sort(), 'refresh');
  }

  /** Files the index saw change: re-run tests covering them (and changed test files themselves). */
  filesChanged(paths: string[]): void {
    if (this.#state === 'failed' || !this.#runner) return;
    this.refreshStale();
    const tests = paths.filter((path) => this.#runner!.isTestFile(this.options.root, path));
    if (tests.length) this.#enqueue(tests, 'refresh');
  }

  #enqueue(files: string[], kind: 'build' | 'refresh'): void {
    const fresh = files.filter((file) => !this.#queue.includes(file));
    if (!fresh.length || this.#closed) return;
    if (!this.#pumping) {
      this.#kind = kind;
      this.#progress = { done: 0, total: 0 };
    }
    this.#queue.push(...fresh);
    this.#progress!.total += fresh.length;
    this.#pumping ??= this.#pump().finally(() => (this.#pumping = undefined));
  }

  async #pump(): Promise<void> {
    const runner = this.#runner!;
    const batchSize = this.options.batchSize ?? 25;
    const started = performance.now();
    let tests = 0;
    let failed = 0;
    let files = 0;
    while (this.#queue.length && !this.#closed) {
      if (this.#held) await this.#held.promise;
      if (this.#closed) break;
      this.#state = this.#kind === 'build' ? 'building' : 'refreshing';
      const batch = this.#queue.splice(0, batchSize);
      this.#abort = new AbortController();
      try {
        this.options.store.forgetHashes();
        const batchStart = Date.now();
        let report: Awaited<ReturnType<TestRunner['run']>>;
        try {
          report = await runner.run(this.options.root, {
            files: batch,
            coverage: true,
            signal: this.#abort.signal,
            niceness: this.options.niceness ?? 10,
            timeoutMs: this.options.timeoutMs ?? 600_000,
          });
        } finally {
          this.#abort = undefined; // no run to stop between batches
        }
        this.options.store.forgetTestFiles(batch);
        this.options.store.recordResults(runner.name, report.tests);
        // A file written while the tests ran may not be the version they ran: its facts get a hash no
        // content has, so they count as stale (and are re-run), never as fresh results of the new version.
        this.options.store.recordCoverage(runner.name, report.coverage ?? [], (path) =>
          modifiedSince(join(this.options.root, path), batchStart)
            ? CHANGED_DURING_RUN
            : this.options.store.currentHash(path),
        );
        tests += report.tests.length;
        failed += report.tests.filter((t) => t.status === 'failed').length;
        files += batch.length;
        this.#progress!.done += batch.length;
      } catch (error) {
        if ((error as Error).name === 'AbortError' && this.#requeue) {
          // stopped for a foreground run: the same files run again once it is over
          this.#requeue = false;
          this.#queue.unshift(...batch.filter((file) => !this.#queue.includes(file)));
          continue;
        }
        if ((error as Error).name === 'AbortError') {
          this.#state = 'cancelled';
          return;
        }
        this.#fail(error);
        return;
      }
    }
    this.#lastRun = {
      kind: this.#kind,
      at: new Date().toISOString(),
      files,
      tests,
      failed,
      duration_ms: Math.round(performance.now() - started),
    };
    this.#state = 'idle';
    this.#progress = null;
  }

  /**
   * Holds background runs back while a foreground run needs the machine (checkpoint runs the tests
   * an agent waits for): the batch running now is stopped and queued again, and nothing starts
   * until every hold is released. Returns the release (calling it twice is harmless).
   */
  hold(): () => void {
    this.#holds++;
    if (!this.#held) {
      let release!: () => void;
      const promise = new Promise<void>((resolve) => (release = resolve));
      this.#held = { promise, release };
    }
    // #abort is set only while a batch runs
    if (this.#abort && !this.#abort.signal.aborted) {
      this.#requeue = true;
      this.#abort.abort();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#holds > 0) return;
      const held = this.#held;
      this.#held = undefined;
      held?.release();
    };
  }

  /** Stops the running test process and drops the queue. */
  cancel(): void {
    this.#queue = [];
    this.#requeue = false;
    this.#abort?.abort();
  }

  /** Resolves when nothing is queued or running. */
  async whenIdle(): Promise<void> {
    await this.#started;
    while (this.#pumping) await this.#pumping;
  }

  status(): SchedulerStatus {
    const activity =
      this.#state === 'failed'
        ? `stopped: ${this.#error?.message ?? 'failed'}`
        : this.#state === 'building' || this.#state === 'refreshing'
          ? `${this.#state === 'building' ? 'building coverage' : 're-running tests of changed code'} ` +
            `with ${this.#runner?.name}: ${this.#progress?.done ?? 0}/` +
            `${this.#progress?.total ?? 0} test files`
          : this.#state === 'starting'
            ? 'choosing a test runner'
            : this.#state === 'cancelled'
              ? 'cancelled'
              : 'idle: coverage is up to date with the last run';
    return {
      state: this.#state,
      runner: this.#runner?.name ?? null,
      activity,
      queued_files: this.#queue.length,
      progress: this.#progress ? { ...this.#progress } : null,
      last_run: this.#lastRun,
      error: this.#error
        ? {
            code: this.#error.code,
            message: this.#error.message,
            runner: (this.#error.details['runner'] as string | null | undefined) ?? this.#runner?.name ?? null,
          }
        : null,
      niceness: this.options.niceness ?? 10,
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#held?.release();
    this.cancel();
    await this.#pumping?.catch(() => undefined);
  }
}
