import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's option: the factor by which the heap may grow past what survived the last full collection. */
const FLAG = 'heap-growing-percent';

/** Where the server's heap growth came from. */
export type HeapGrowthSource = 'configuration' | 'command line' | 'V8';

/** Where the server's heap growth comes from: the node command line, the configuration, or V8's own choice (0). */
function heapGrowthSource(percent: number): HeapGrowthSource {
  if (process.execArgv.some((arg) => arg.replace(/_/g, '-').startsWith(`--${FLAG}`))) return 'command line';
  return Number.isInteger(percent) && percent > 0 ? 'configuration' : 'V8';
}

/**
 * Sets how far the server's JavaScript heap may grow past what is live before V8 collects it
 * (`server.heap_growth_percent`). Left to itself V8 lets a heap reach up to four times its live size when
 * collecting looks costly, and a server that has just built an index is exactly that case: on a 7,600-file tree the
 * first recon after the build took the heap to 750 MB of which 310 MB was live (bench/index/RESULTS.md); 30 %
 * kept it near 400 MB, for more frequent full collections (recon p95 up from ~330 to ~500 ms there), so the default
 * (0) leaves the choice to V8 and a memory-bound user opts in. `serve` sets it before it opens the index;
 * V8 reads the factor whenever it sets the next collection's limit, so setting it at run time acts as the
 * command-line option does, and the command line wins when it names the option.
 */
export function applyHeapGrowth(percent: number): HeapGrowthSource {
  const source = heapGrowthSource(percent);
  if (source === 'configuration') setFlagsFromString(`--${FLAG}=${percent}`);
  growth = { source, percent: source === 'configuration' ? percent : 0 };
  return source;
}

/** The heap growth in force: as `applyHeapGrowth` last set it (V8's own choice until it is called). */
let growth: { source: HeapGrowthSource; percent: number } = { source: heapGrowthSource(0), percent: 0 };

/** The heap growth a one-time build runs with (`buildLean`): V8 collects each time the heap grows by a fifth. */
export const LEAN_GROWTH_PERCENT = 20;

let leanDepth = 0;
/** V8's `gc()` once looked up (`loadFullCollection`); null where the process cannot have it. */
let fullCollection: (() => void) | null | undefined;

/**
 * Runs a one-time build that reads the whole index and leaves most of what it allocates behind (the lexical store,
 * the gate's word lists, the definition graph and its ranks) with V8's heap growth held at `LEAN_GROWTH_PERCENT`,
 * after one full collection so that the limit V8 works to is set from what is live when the build starts; the growth
 * in force before is set again when the build ends, however it ends. Left to V8, the first recon after a cold build
 * of a 7,600-file tree took the process from 659 to 896 MB, almost all of it garbage; built this way it stayed at
 * 676 MB for ~1 s of collections (bench/index/RESULTS.md). Builds nest (the outermost sets and restores); the node
 * command line's own growth option wins, and without a full collection at hand (`gc`) the build runs as it is.
 */
export function buildLean<T>(build: () => T): T {
  if (growth.source === 'command line') return build();
  if (leanDepth === 0) {
    if (fullCollection === undefined) fullCollection = loadFullCollection();
    if (!fullCollection) return build();
    const percent = growth.percent > 0 ? Math.min(growth.percent, LEAN_GROWTH_PERCENT) : LEAN_GROWTH_PERCENT;
    setFlagsFromString(`--${FLAG}=${percent}`);
    // Near the memory target, what can be built again goes before the build adds its own (the definition graph kept
    // from recon_scout while the first recon builds the lexical store and the word lists), even when asked for just
    // now: the build's own growth comes on top of what the server holds when it starts.
    if (overPressure(LEAN_RELEASE_AT)) releaseWhatCanBeRebuilt(true);
    fullCollection();
  }
  leanDepth += 1;
  try {
    return build();
  } finally {
    leanDepth -= 1;
    if (leanDepth === 0) setFlagsFromString(`--${FLAG}=${growth.percent}`);
  }
}

/** What `releaseFreedMemory` did: `released`/`nothing to release` as glibc answered, or why it could not ask. */
export type ReleaseOutcome = 'released' | 'nothing to release' | 'unavailable';

let mallocTrim: ((pad: number) => number) | null | undefined;

/**
 * Hands memory the process has freed back to the operating system: glibc's `malloc_trim(0)`, called through
 * koffi. glibc keeps what native code frees (tree-sitter's trees, SQLite's buffers, an index worker thread's
 * whole arena once the thread has exited) for reuse, and only a trim returns the pages inside its heaps: after
 * the first index of a 7,600-file tree that was 127 MB of the server's 463 MB (bench/index/RESULTS.md). Where
 * there is no glibc (macOS, musl) or koffi cannot load, nothing is done and the answer says so.
 */
export function releaseFreedMemory(): ReleaseOutcome {
  if (mallocTrim === undefined) mallocTrim = loadMallocTrim();
  if (mallocTrim === null) return 'unavailable';
  return mallocTrim(0) === 1 ? 'released' : 'nothing to release';
}

function loadMallocTrim(): ((pad: number) => number) | null {
  if (process.platform !== 'linux') return null;
  // Without glibc (musl) there is no libc.so.6 or no malloc_trim in it: either throws and is caught.
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
  } catch {
    return null;
  }
}

/**
 * How often, at most, a busy server returns freed native memory: a trim after a recon call on a 7,600-file tree takes
 * ~1.5 ms and returns what the call's SQLite reads, file texts and tree-sitter trees left behind (without it ~80 MB
 * gathered over 100 calls, bench/index/RESULTS.md).
 */
export const RELEASE_INTERVAL_MS = 1000;

let lastRelease = -Infinity;
let scheduled: NodeJS.Immediate | NodeJS.Timeout | undefined;

/**
 * Returns freed native memory after a piece of work (a tool call), once the current turn of the event loop has sent
 * its answer: at once when the last trim is `RELEASE_INTERVAL_MS` old, otherwise when it will be (a timer that does
 * not keep the process alive), so a burst of calls costs one trim a second and the last call's memory is returned too.
 */
export function releaseFreedMemorySoon(release: () => unknown = releaseFreedMemory): void {
  if (scheduled) return;
  const wait = lastRelease + RELEASE_INTERVAL_MS - performance.now();
  const run = () => {
    scheduled = undefined;
    lastRelease = performance.now();
    release();
  };
  scheduled = wait <= 0 ? setImmediate(run) : setTimeout(run, wait);
  scheduled.unref();
}

/**
 * How long a server goes without a tool call before it collects its garbage once and returns the freed memory:
 * longer than an agent's usual pause between calls (a full collection of a large heap holds the main thread for a
 * few hundred milliseconds), and past the definition graph's default keep time (`server.index.graph_keep_seconds`,
 * 30 s), so what that let go is returned too.
 */
export const QUIET_COLLECT_MS = 35_000;

let quietTimer: NodeJS.Timeout | undefined;

/** `collectNow` from a timer: nothing waits for its outcome. */
const collectUnawaited = (): void => void collectNow();

/**
 * After a tool call: (re)starts the quiet timer; when it runs out the server collects and trims (`collectNow`). V8
 * alone does not shrink a heap that stopped growing: after 100 recon calls on a 7,600-file tree the server still
 * held ~900 MB a minute later, of which ~270 MB was live (bench/index/RESULTS.md).
 */
export function collectWhenQuiet(collect: () => unknown = collectUnawaited, quietMs = QUIET_COLLECT_MS): void {
  if (quietTimer) return void quietTimer.refresh();
  quietTimer = setTimeout(() => {
    quietTimer = undefined;
    collect();
  }, quietMs);
  quietTimer.unref();
}

/**
 * After something large was let go while no call is running (the definition graph after its keep time): collects at
 * once when the server has already been quiet for `QUIET_COLLECT_MS` (its quiet collection ran before the graph was
 * let go, when `server.index.graph_keep_seconds` is longer), else leaves it to the quiet collection still to come.
 */
export function collectIfQuiet(collect: () => unknown = collectUnawaited): void {
  if (!quietTimer) collect();
}

/** The least time between two of the memory target's collections (`keepUnderMemoryTarget`). */
export const PRESSURE_INTERVAL_MS = 10_000;
/** The longest wait between them while collections do not bring the server under its target. */
export const PRESSURE_MAX_INTERVAL_MS = 320_000;

/**
 * The share of the memory target at which the server acts: a call's own allocations and V8's next growth come on top
 * of what it holds when the call ends, so it acts before it reaches the target.
 */
export const PRESSURE_AT = 0.9;

/** The resident memory the server keeps under (`server.memory_target_mb`), in bytes; 0: none. */
let targetBytes = 0;
/** Lets go of what it can build again; `atOnce`: even what was asked for just now (a one-time build is starting). */
export type Releaser = (atOnce: boolean) => void;
const releasers = new Set<Releaser>();
let pressure: { next: number; interval: number; running: boolean } = {
  next: -Infinity,
  interval: PRESSURE_INTERVAL_MS,
  running: false,
};

/**
 * The share of the memory target above which a one-time build (`buildLean`) first lets go of what can be built again,
 * whenever it was last asked for: the first recon after a build of a 7,600-file tree started at ~480–520 MB and ended
 * ~50–70 MB higher (the lexical store, the gate's word lists), while the definition graph recon_scout had just used
 * (~118 MB of heap) was still held (bench/index/RESULTS.md).
 */
export const LEAN_RELEASE_AT = 0.75;

/**
 * Whether the process's resident memory is over `share` (`PRESSURE_AT` unless given) of the memory target (never when
 * there is none).
 */
function overPressure(share = PRESSURE_AT, rss: () => number = () => process.memoryUsage.rss()): boolean {
  return targetBytes > 0 && rss() > targetBytes * share;
}

/** Sets the resident memory the server keeps under (`server.memory_target_mb`); 0 turns it off. */
export function setMemoryTarget(mb: number): void {
  targetBytes = Number.isFinite(mb) && mb > 0 ? mb * 1024 * 1024 : 0;
  pressure = { next: -Infinity, interval: PRESSURE_INTERVAL_MS, running: false };
}

/**
 * Registers what lets go of memory it can build again (the index's definition graph) when the server is over its
 * memory target; returns the function that removes it (the index's `close`).
 */
export function onMemoryPressure(release: Releaser): () => void {
  releasers.add(release);
  return () => void releasers.delete(release);
}

/** Every registered releaser lets go of what it can build again. */
function releaseWhatCanBeRebuilt(atOnce: boolean): void {
  for (const release of releasers) release(atOnce);
}

/**
 * After a tool call: when the process's resident memory is over `PRESSURE_AT` of the target, once the answer is on
 * its way, every registered releaser lets go of what it can rebuild and the server collects and trims once
 * (`collectNow`). At most once every `PRESSURE_INTERVAL_MS`, a wait that doubles (up to `PRESSURE_MAX_INTERVAL_MS`)
 * while a collection does not bring the server under that, so a repository whose live data alone is over it does not
 * pay a full collection per call. Left to V8, 100 recon calls on a 7,600-file tree took the server from 578 to 664 MB
 * with 268 MB live (V8 collects the old generation when it has grown to a multiple of what is live, not when memory
 * is short); with a 600 MB target they stayed at 504–564 MB (bench/index/RESULTS.md).
 */
export function keepUnderMemoryTarget(probe: MemoryProbe = {}): void {
  const now = probe.now ?? (() => performance.now());
  const collect = probe.collect ?? collectNow;
  if (pressure.running || now() < pressure.next || !overPressure(PRESSURE_AT, probe.rss)) return;
  pressure.running = true;
  const state = pressure;
  setImmediate(() => {
    releaseWhatCanBeRebuilt(false);
    void collect()
      .catch(() => undefined)
      .then(() => {
        state.running = false;
        state.interval = overPressure(PRESSURE_AT, probe.rss)
          ? Math.min(state.interval * 2, PRESSURE_MAX_INTERVAL_MS)
          : PRESSURE_INTERVAL_MS;
        state.next = now() + state.interval;
        probe.done?.(state.interval);
      });
  }).unref();
}

/**
 * What the server does with memory after each tool call, once its answer is on the way: what the call freed in native
 * code (SQLite reads, file texts, syntax trees) goes back to the system (`releaseFreedMemorySoon`); once the agent has
 * gone quiet, what the heap holds beyond the live objects (`collectWhenQuiet`); over the memory target, at once
 * (`keepUnderMemoryTarget`).
 */
export function afterToolCall(): void {
  releaseFreedMemorySoon();
  collectWhenQuiet();
  keepUnderMemoryTarget();
}

/** What `keepUnderMemoryTarget` reads and does, given by tests; the process's own by default. */
export interface MemoryProbe {
  rss?: () => number;
  now?: () => number;
  collect?: () => Promise<unknown>;
  /** Called when a collection is over, with the wait before the next may run. */
  done?: (intervalMs: number) => void;
}

/** What `collectNow` did: whether a full collection ran, and what the trim answered. */
export interface CollectOutcome {
  collected: boolean;
  released: ReleaseOutcome;
}

/** V8 frees the memory of collected array buffers on a background thread: the trim waits for it this long. */
const SWEEP_WAIT_MS = 500;

/**
 * One full garbage collection (where V8 lets the process ask for one), then, once V8 has freed what the collection
 * let go, the freed native memory returned.
 */
export async function collectNow(): Promise<CollectOutcome> {
  if (fullCollection === undefined) fullCollection = loadFullCollection();
  fullCollection?.();
  await new Promise((resolve) => setTimeout(resolve, SWEEP_WAIT_MS).unref());
  return { collected: fullCollection !== null, released: releaseFreedMemory() };
}

/**
 * V8's `gc()`: the global when node runs with `--expose-gc`; otherwise made in a fresh context with the flag set for
 * that moment only and turned off again (as Jest's leak detector does), so the server's own global stays as it was.
 */
function loadFullCollection(): (() => void) | null {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
