import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

const LOCK_STALE_MS = 10 * 60_000;

/**
 * Runs `fn` holding a lock directory beside `dir` (`<dir>.lock`), so that parallel test processes
 * of one checkout install into `dir` one at a time. A lock older than ten minutes is stale (its
 * holder died; `staleMs` for longer work) and is taken over; `what` names the work in the error when the lock never
 * frees.
 */
export function withDirectoryLock<T>(dir: string, what: string, fn: () => T, staleMs = LOCK_STALE_MS): T {
  const lock = `${dir}.lock`;
  mkdirSync(dirname(lock), { recursive: true });
  const deadline = Date.now() + staleMs;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > staleMs)
        rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`another process holds ${lock}; remove it if no test run is ${what}`);
      execFileSync('sleep', ['1']);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
