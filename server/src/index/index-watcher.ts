import { relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

const IGNORED_SEGMENTS = new Set(['.git', '.agentgov', 'node_modules']);

/**
 * Watches the work tree (less what git ignores) and calls `onChange` once per burst of events (debounced). Renames
 * arrive
 * as unlink + add; the index re-discovers files anyway, so the event kinds need no bookkeeping here.
 * Symlinks are watched as links, never followed: a link to `/etc` or a loop (`x/up -> ..`) is not
 * walked. A watcher error (ELOOP, EMFILE, a vanished directory) goes to `onError`, never a crash.
 */
export class IndexWatcher {
  readonly #watcher: FSWatcher;
  readonly ready: Promise<void>;
  #timer: NodeJS.Timeout | null = null;
  #pending = new Set<string>();

  /**
   * `ignoredDirs`: repository-relative directories not to walk (what git ignores: build output, virtual environments).
   */
  constructor(
    root: string,
    debounceMs: number,
    onChange: (paths: string[]) => void,
    onError: (error: Error) => void = () => {},
    ignoredDirs: readonly string[] = [],
  ) {
    const skipped = new Set(ignoredDirs);
    this.#watcher = watch(root, {
      ignoreInitial: true,
      followSymlinks: false,
      ignored: (path: string) => {
        const segments = relative(root, path).split(sep);
        if (segments.some((segment) => IGNORED_SEGMENTS.has(segment))) return true;
        for (let i = 1; i <= segments.length && skipped.size > 0; i += 1)
          if (skipped.has(segments.slice(0, i).join('/'))) return true;
        return false;
      },
    });
    this.ready = new Promise((resolve) => this.#watcher.once('ready', () => resolve()));
    this.#watcher.on('error', (error) => onError(error instanceof Error ? error : new Error(String(error))));
    this.#watcher.on('all', (_event, path) => {
      this.#pending.add(relative(root, path).split(sep).join('/'));
      if (this.#timer) clearTimeout(this.#timer);
      this.#timer = setTimeout(() => {
        this.#timer = null;
        const paths = [...this.#pending];
        this.#pending.clear();
        onChange(paths);
      }, debounceMs);
    });
  }

  async close(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    await this.#watcher.close();
  }
}
