import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** True when `path` is an existing directory. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Every file under `root` that `accept`s (its name, and its whole path), recursively, sorted; [] when `root` is not a
 * directory. Directories that vanish or cannot be read while walking are passed over: an agent
 * may delete a session while `watch` scans.
 */
export function findCaptureFiles(root: string, accept: (name: string, path: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && accept(entry.name, path)) out.push(path);
    }
  };
  if (isDirectory(root)) walk(root);
  return out.sort();
}
