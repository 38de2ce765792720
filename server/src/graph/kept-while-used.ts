/**
 * A value that is costly to build and large to hold (the definition graph of a 7,600-file tree: ~117 MB of heap,
 * 3–4 s to build): held for `keepMs` after it was last asked for, then let go and built again when next asked for. A
 * server between sessions, or busy with calls that do not need the value, does not keep it. With 0 it is held until
 * the current turn of the event loop ends (the synchronous part of the call that asked).
 *
 * Not a `WeakRef`: V8 keeps a WeakRef's target alive until the end of the job that made or dereferenced it, and in a
 * server answering calls back to back that was the rest of the session (a heap snapshot after 100 recon calls showed
 * the graph held by `weak_refs_keep_during_job`).
 */
export class KeptWhileUsed<T> {
  #value: T | undefined;
  #timer: NodeJS.Timeout | undefined;
  #lastUsed = -Infinity;

  /** `onExpire`: called after the value was let go because nothing asked for it for `keepMs` (not on `clear`). */
  constructor(
    private readonly keepMs: number,
    private readonly onExpire?: () => void,
  ) {}

  get(build: () => T): T {
    const value = (this.#value ??= build());
    this.#lastUsed = performance.now();
    if (this.#timer) this.#timer.refresh();
    else {
      this.#timer = setTimeout(() => {
        this.clear();
        this.onExpire?.();
      }, this.keepMs);
      this.#timer.unref();
    }
    return value;
  }

  /** The value if it is held now; never builds it, and does not count as asking for it. */
  peek(): T | undefined {
    return this.#value;
  }

  /**
   * Lets the value go before its keep time when nothing asked for it in the last `idleMs` (the server over its memory
   * target); answers whether it let something go.
   */
  releaseIfIdle(idleMs: number): boolean {
    if (this.#value === undefined || performance.now() - this.#lastUsed < idleMs) return false;
    this.clear();
    return true;
  }

  /** Lets the value go at once (its inputs changed, or its owner closed). */
  clear(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#value = undefined;
  }
}
