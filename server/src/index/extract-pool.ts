import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { LanguagePack, Logger } from '@agentgov/core';
import { languageFor } from './extract-file.js';
import { runExtractJob, type ExtractJob, type ExtractOutcome } from './extract-job.js';
import type { ExtractReply, ExtractRequest, ExtractWorkerData, WorkerPackSpec } from './extract-worker.js';

/** Jobs posted ahead to each worker, so it never waits on the main thread between files. */
const IN_FLIGHT_PER_WORKER = 4;
/**
 * Jobs worth having outstanding per worker: results are consumed in file order, so one large file
 * must not leave the other workers idle for want of queued work.
 */
const OUTSTANDING_PER_WORKER = 8;

/** Runs extract jobs: on worker threads where the language pack names a worker module, else in-thread. */
export interface Extractor {
  /** How many jobs are worth keeping outstanding at once. */
  readonly concurrency: number;
  run(job: ExtractJob): Promise<ExtractOutcome>;
  /**
   * Runs one queued job on the calling thread (the one furthest ahead), for a caller that would
   * otherwise wait idle on the workers; false when nothing is queued.
   */
  help(): boolean;
  close(): Promise<void>;
}

/** Every job on the calling thread. */
export class InThreadExtractor implements Extractor {
  readonly concurrency = 1;
  constructor(
    private readonly root: string,
    private readonly languages: readonly LanguagePack[],
  ) {}
  run(job: ExtractJob): Promise<ExtractOutcome> {
    return Promise.resolve(runExtractJob(this.root, job, this.languages));
  }
  help(): boolean {
    return false;
  }
  async close(): Promise<void> {}
}

/**
 * Files each worker must have to take over before it pays for itself. A worker's fixed CPU cost — its
 * isolate, the walker's modules, a JIT that warms up on its own — was 0.7–1.4 s on google/gson
 * (264 Java files: 2.7–2.8 s CPU in-thread, 3.4–4.2 s with one worker, 4.2–4.4 s with two; load 12),
 * against 5–10 ms of parse + extract per file.
 */
export const FILES_PER_WORKER = 1000;

/**
 * The default pool size for `files` files to parse: one worker per FILES_PER_WORKER files, at most one per
 * available core but one — that core is the main thread's, which collects the facts, resolves and writes them
 * (extracting a queued file while it would wait). Fewer than FILES_PER_WORKER files are extracted in-thread.
 * Since parse and walk are one native call the writes are a large share of a build: on 2 cores a second worker
 * bought no wall time and cost CPU and memory (the combined 7,642-file tree: 19.7–20.3 s wall, 30.2–30.6 CPU s,
 * peak RSS 522–528 MB with one worker against 19.7–19.8 s, 31.2–31.3 CPU s, 557–569 MB with two; sympy 12.0–12.7
 * against 13.3–13.5 CPU s). Before the native parse, two workers were the better choice on vuejs/core (3.33 s
 * against 3.55 s, medians of 5).
 */
export function defaultWorkerCount(files: number): number {
  return Math.min(Math.max(1, availableParallelism() - 1), Math.floor(files / FILES_PER_WORKER));
}

/**
 * The young generation of each worker's heap, in MB. A worker's allocations are one file's tree walk and facts at a
 * time, which die young; V8's default (up to 16 MB per semi-space, growing under allocation) let two workers add
 * ~60 MB to the build's peak on a 7,600-file tree (608–613 MB against 543–566 MB with 8, the same CPU;
 * bench/index/RESULTS.md).
 */
const WORKER_YOUNG_GENERATION_MB = 8;

interface Pending {
  request: ExtractRequest;
  resolve(outcome: ExtractOutcome): void;
}

interface PoolWorker {
  worker: Worker;
  inFlight: Map<number, Pending>;
}

/**
 * A small pool of index worker threads. A job whose pack has no worker module, or that a worker
 * cannot load, runs in-thread; a worker that dies fails its in-flight jobs (each counted as a
 * skipped file by the caller), and when none is left every further job runs in-thread.
 */
export class ExtractPool implements Extractor {
  readonly concurrency: number;
  readonly #inThread: InThreadExtractor;
  readonly #languages: readonly LanguagePack[];
  readonly #root: string;
  readonly #workerPacks: Set<string>;
  readonly #workers: PoolWorker[] = [];
  readonly #queue: Pending[] = [];
  readonly #logger: Logger;
  #nextId = 0;
  #closed = false;

  private constructor(root: string, languages: readonly LanguagePack[], size: number, logger: Logger) {
    this.#inThread = new InThreadExtractor(root, languages);
    this.#languages = languages;
    this.#root = root;
    this.#logger = logger;
    const specs: WorkerPackSpec[] = languages.flatMap((pack) =>
      pack.workerModule
        ? [{ name: pack.name, url: pack.workerModule.url, exportName: pack.workerModule.exportName }]
        : [],
    );
    this.#workerPacks = new Set(specs.map((spec) => spec.name));
    for (let i = 0; i < size; i++) this.#spawn({ root, packs: specs });
    this.concurrency = (size + 1) * OUTSTANDING_PER_WORKER;
  }

  /** A pool of `size` workers, or null when no language pack can run on a worker (extract in-thread). */
  static start(root: string, languages: readonly LanguagePack[], size: number, logger: Logger): ExtractPool | null {
    if (size < 1 || !languages.some((pack) => pack.workerModule)) return null;
    return new ExtractPool(root, languages, size, logger);
  }

  #spawn(data: ExtractWorkerData): void {
    const worker = new Worker(new URL('./extract-worker.js', import.meta.url), {
      workerData: data,
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    const entry: PoolWorker = { worker, inFlight: new Map() };
    worker.on('message', (reply: ExtractReply) => {
      const pending = entry.inFlight.get(reply.id);
      if (!pending) return;
      entry.inFlight.delete(reply.id);
      if ('outcome' in reply) pending.resolve(reply.outcome);
      else this.#runInThread(pending);
      this.#dispatch();
    });
    const fail = (message: string) => {
      const at = this.#workers.indexOf(entry);
      if (at === -1) return;
      this.#workers.splice(at, 1);
      if (!this.#closed)
        this.#logger.warn('index worker thread stopped; its files in progress are skipped', {
          error: message,
          files: entry.inFlight.size,
        });
      for (const pending of entry.inFlight.values())
        pending.resolve({ status: 'failed', message: `index worker thread stopped: ${message}` });
      entry.inFlight.clear();
      this.#dispatch();
    };
    worker.on('error', (error) => fail(error.message));
    worker.on('exit', (code) => fail(`exit code ${code}`));
    this.#workers.push(entry);
  }

  run(job: ExtractJob): Promise<ExtractOutcome> {
    const pack = languageFor(job.path, this.#languages);
    if (!pack || !this.#workerPacks.has(pack.name)) return this.#inThread.run(job);
    return new Promise((resolve) => {
      this.#queue.push({ request: { id: this.#nextId++, pack: pack.name, job }, resolve });
      this.#dispatch();
    });
  }

  help(): boolean {
    const pending = this.#queue.pop();
    if (!pending) return false;
    pending.resolve(runExtractJob(this.#root, pending.request.job, this.#languages));
    return true;
  }

  #runInThread(pending: Pending): void {
    void this.#inThread.run(pending.request.job).then(pending.resolve);
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      if (this.#workers.length === 0) {
        for (const pending of this.#queue.splice(0)) this.#runInThread(pending);
        return;
      }
      let target: PoolWorker | undefined;
      for (const candidate of this.#workers)
        if (
          candidate.inFlight.size < IN_FLIGHT_PER_WORKER &&
          (!target || candidate.inFlight.size < target.inFlight.size)
        )
          target = candidate;
      if (!target) return;
      const pending = this.#queue.shift()!;
      target.inFlight.set(pending.request.id, pending);
      target.worker.postMessage(pending.request);
    }
  }

  /** Terminates the workers; jobs still queued run in-thread. */
  async close(): Promise<void> {
    this.#closed = true;
    const workers = this.#workers.splice(0);
    for (const { inFlight } of workers) for (const pending of inFlight.values()) this.#runInThread(pending);
    for (const pending of this.#queue.splice(0)) this.#runInThread(pending);
    await Promise.all(workers.map(({ worker }) => worker.terminate()));
  }
}
