import type { IndexProgress } from '../index/types.js';
import type { ToolContext } from '../tools/tool.js';

/** setTimeout's largest delay; a longer wait is no wait bound at all. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** How an index-backed call meets an index still building its first time. */
export interface IndexGate {
  /** Why the first build failed, once it has. */
  failure(): Error | undefined;
  /** How long a call waits for the first build before answering E_INDEX_NOT_READY; Infinity waits for it. */
  waitMs: number;
  /** Minimum milliseconds between two progress notifications to one call. */
  progressIntervalMs: number;
}

/**
 * Waits for the first index build, up to `gate.waitMs` (or until the call is cancelled), telling
 * the client how far it got: one MCP progress notification at once, then one per step of the build
 * (throttled; `progress` only ever increases, as MCP asks), when the call carried a progressToken.
 * True when the index is ready.
 */
export async function waitForIndex(ctx: ToolContext, gate: IndexGate): Promise<boolean> {
  const { index } = ctx;
  if (index.isReady()) return true;
  let sent = -1;
  let sentAt = 0;
  const report = (progress: IndexProgress, force: boolean) => {
    const now = Date.now();
    if (progress.done <= sent || (!force && now - sentAt < gate.progressIntervalMs)) return;
    sent = progress.done;
    sentAt = now;
    ctx
      .progress(progress.done, progress.total, 'indexing the repository')
      .catch((error: unknown) => ctx.logger.debug('progress notification not delivered', { error: String(error) }));
  };
  report(index.progress(), true);
  if (gate.waitMs <= 0) return index.isReady();
  const onProgress = (progress: IndexProgress) => report(progress, false);
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await new Promise<boolean>((resolve) => {
      index.on('progress', onProgress);
      if (gate.waitMs < MAX_TIMER_MS) timer = setTimeout(() => resolve(index.isReady()), gate.waitMs);
      onAbort = () => resolve(false);
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      index.ready.then(
        () => resolve(true),
        () => resolve(false),
      );
    });
  } finally {
    clearTimeout(timer);
    index.off('progress', onProgress);
    if (onAbort) ctx.signal.removeEventListener('abort', onAbort);
  }
}
