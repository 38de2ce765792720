import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';

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
 * kept it near 400 MB, for more frequent full collections (recon p95 up from ~330 to ~500 ms there, within the machine's noise), so the
 * default (0) leaves the choice to V8 and a memory-bound user opts in. `serve` sets it before it opens the index;
 * V8 reads the factor whenever it sets the next collection's limit, so setting it at run time acts as the
 * command-line option does, and the command line wins when it names the option.
 */
export function applyHeapGrowth(percent: number): HeapGrowthSource {
  const source = heapGrowthSource(percent);
  if (source === 'configuration') setFlagsFromString(`--${FLAG}=${percent}`);
  return source;
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
