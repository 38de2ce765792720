import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';

/** The path with its symbolic links resolved, or as given (made absolute) when it does not exist. */
export function realPathOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** True when `child` is `parent` or lies below it (both absolute, compared as given). */
export function isWithinDirectory(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
