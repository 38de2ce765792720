/**
 * Tails capture files for `watch`: new files, appended lines, rotation and truncation. It decides
 * only *when* a file is read; *what* is read comes from the pipeline, whose per-file offsets in
 * system.db (stored in the same transaction as the events) make every read resumable after a
 * crash and detect rotation/truncation by size and inode. File-system events (chokidar) give low
 * latency; a periodic scan catches whatever they miss (new roots, editors that replace files,
 * network file systems). Scans never overlap, so one file is never read twice at once.
 */
import { existsSync, statSync } from 'node:fs';
import type { Logger } from '@agentgov/core';
import type { FSWatcher } from 'chokidar';

/** What one framework offers the tailer. */
export interface TailTarget {
  name: string;
  /** Directories under which captures appear. */
  roots(): string[];
  list(): Promise<string[]>;
  /** Reads the file from its stored offset; resolves to what was read. */
  ingest(file: string): Promise<{ events: number; reset?: string | undefined }>;
}

export interface TailerStats {
  scans: number;
  reads: number;
  events: number;
  resets: number;
  failures: number;
}

export interface TailerOptions {
  logger: Logger;
  /** Interval of the safety-net scan (default 1000 ms). */
  pollMs?: number;
  /** Delay that groups a burst of file-system events into one scan (default 25 ms). */
  debounceMs?: number;
}

interface Seen {
  size: number;
  mtimeMs: number;
  ino: number;
}

export class CaptureTailer {
  readonly stats: TailerStats = { scans: 0, reads: 0, events: 0, resets: 0, failures: 0 };
  readonly #seen = new Map<string, Seen>();
  readonly #watchedRoots = new Set<string>();
  #watcher: FSWatcher | undefined;
  #poll: NodeJS.Timeout | undefined;
  #debounce: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = false;

  constructor(
    private readonly targets: TailTarget[],
    private readonly options: TailerOptions,
  ) {}

  /** Reads every capture that changed since the last scan; concurrent calls share one run. */
  scan(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        await this.#scanOnce();
      } while (this.#again && !this.#stopped);
    })().finally(() => (this.#running = undefined));
    return this.#running;
  }

  /** First scan, then watching: file-system events plus the periodic scan. */
  async start(): Promise<void> {
    await this.scan();
    if (this.#stopped) return;
    const { watch } = await import('chokidar');
    this.#watcher = watch([], { ignoreInitial: true, depth: 4, awaitWriteFinish: false });
    this.#watcher.on('all', () => this.#scheduleScan());
    this.#watcher.on('error', (error) => this.options.logger.warn(`file watcher: ${(error as Error).message}`));
    this.#watchNewRoots();
    this.#poll = setInterval(() => {
      this.#watchNewRoots();
      void this.scan();
    }, this.options.pollMs ?? 1000);
  }

  /** Stops watching and waits for the scan in progress, so its offsets are stored. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#poll);
    clearTimeout(this.#debounce);
    await this.#watcher?.close();
    await this.#running;
  }

  #scheduleScan(): void {
    if (this.#stopped) return;
    clearTimeout(this.#debounce);
    this.#debounce = setTimeout(() => void this.scan(), this.options.debounceMs ?? 25);
  }

  /** Roots that did not exist at start (no agent run yet) are watched once they appear. */
  #watchNewRoots(): void {
    for (const target of this.targets) {
      for (const root of target.roots()) {
        if (this.#watchedRoots.has(root) || !existsSync(root)) continue;
        this.#watchedRoots.add(root);
        this.#watcher?.add(root);
      }
    }
  }

  async #scanOnce(): Promise<void> {
    this.stats.scans += 1;
    for (const target of this.targets) {
      if (this.#stopped) return;
      let files: string[];
      try {
        files = await target.list();
      } catch (error) {
        this.stats.failures += 1;
        this.options.logger.warn(`${target.name}: listing captures failed: ${(error as Error).message}`);
        continue;
      }
      for (const file of files) {
        if (this.#stopped) return;
        await this.#readIfChanged(target, file);
      }
    }
  }

  async #readIfChanged(target: TailTarget, file: string): Promise<void> {
    let now: Seen;
    try {
      const stat = statSync(file);
      now = { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
    } catch {
      this.#seen.delete(file); // removed between listing and reading: nothing to read
      return;
    }
    const before = this.#seen.get(file);
    if (before && before.size === now.size && before.mtimeMs === now.mtimeMs && before.ino === now.ino) return;
    try {
      const report = await target.ingest(file);
      this.stats.reads += 1;
      this.stats.events += report.events;
      if (report.reset) {
        this.stats.resets += 1;
        this.options.logger.info(`${file}: ${report.reset}, read again from the start`);
      }
      if (report.events) this.options.logger.debug(`${file}: ${report.events} new events`);
      this.#seen.set(file, now);
    } catch (error) {
      // Not marked as seen: the next scan retries it.
      this.stats.failures += 1;
      this.options.logger.warn(`${target.name}: reading ${file} failed: ${(error as Error).message}`);
    }
  }
}
