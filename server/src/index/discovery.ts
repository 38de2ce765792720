import { execFile } from 'node:child_process';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { pathGlobFilter, type LanguagePack } from '@agentgov/core';
import { SYMLINK_LOOP, SYMLINK_OUTSIDE, whereabouts } from '../paths/repo-boundary.js';
import { languageFor } from './extract-file.js';

const run = promisify(execFile);

export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
/** Never indexed, whatever git says: our own store and dependency trees. */
const ALWAYS_EXCLUDED = ['.agentgov/**', '**/node_modules/**', '.git/**'];
const CONFIG_FILES = new Set(['package.json', 'tsconfig.json', 'jsconfig.json']);

export interface CandidateFile {
  path: string;
  size: number;
  mtimeMs: number;
  language: string;
}

export interface Discovery {
  candidates: CandidateFile[];
  /** package.json / tsconfig.json paths, for module resolution. */
  configFiles: string[];
  skipped: Record<string, number>;
}

/**
 * Discovery for a burst of watcher events that only modified files the index already holds:
 * the file set is unchanged, so only those files are stat'ed (no `git ls-files`, no full stat).
 * Returns null when the burst may add or remove files, or touches module-resolution config.
 */
export async function rediscoverChanged(
  root: string,
  languages: readonly LanguagePack[],
  stored: ReadonlyMap<string, { size: number; mtimeMs: number; language: string }>,
  changed: readonly string[],
  configFiles: string[],
  maxFileBytes = DEFAULT_MAX_FILE_BYTES,
): Promise<Discovery | null> {
  const fresh = new Map<string, CandidateFile>();
  for (const path of changed) {
    const base = path.slice(path.lastIndexOf('/') + 1);
    if (CONFIG_FILES.has(base)) return null;
    const known = stored.get(path);
    if (!known) {
      if (languageFor(path, languages)) return null;
      continue; // not a source file (README, a directory): nothing to index
    }
    // A file replaced by a symlink out of the repository: full discovery counts and drops it.
    if ((await whereabouts(await realpath(root), join(root, path))) !== 'inside') return null;
    const info = await stat(join(root, path)).catch(() => null);
    if (!info || !info.isFile() || info.size > maxFileBytes) return null;
    fresh.set(path, { path, size: info.size, mtimeMs: info.mtimeMs, language: known.language });
  }
  const candidates = [...stored.entries()].map(
    ([path, file]) => fresh.get(path) ?? { path, size: file.size, mtimeMs: file.mtimeMs, language: file.language },
  );
  return { candidates, configFiles, skipped: {} };
}

/** Tracked plus untracked-not-ignored files (git), or a plain walk when `root` is not a git work tree. */
async function listPaths(root: string): Promise<string[]> {
  try {
    const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      maxBuffer: 512 * 1024 * 1024,
    });
    return [...new Set(stdout.split('\0').filter((path) => path.length > 0))];
  } catch {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    // Symlinks are listed (not followed) so that discovery checks where they lead and counts them.
    return entries
      .filter((entry) => entry.isFile() || entry.isSymbolicLink())
      .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
  }
}

/**
 * Directories git ignores (`dist/`, `.venv/`, build output), repository-relative without the
 * trailing slash: the watcher does not walk them, since nothing in them is indexed. Empty outside git.
 */
export async function ignoredDirectories(root: string): Promise<string[]> {
  try {
    const { stdout } = await run(
      'git',
      ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'],
      { cwd: root, maxBuffer: 512 * 1024 * 1024 },
    );
    return stdout
      .split('\0')
      .filter((entry) => entry.endsWith('/'))
      .map((entry) => entry.slice(0, -1));
  } catch {
    return [];
  }
}

/**
 * Lists indexable files with size and mtime; oversized ones are counted in `skipped`, never read,
 * and so are symlinks whose target leaves the repository (a credentials file linked in) or loops.
 */
export async function discoverFiles(
  root: string,
  languages: readonly LanguagePack[],
  options: { maxFileBytes?: number; exclude?: readonly string[] } = {},
): Promise<Discovery> {
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const always = pathGlobFilter(ALWAYS_EXCLUDED);
  // The user's list in the one glob dialect (docs/config.md): `!pattern` re-includes, never past ALWAYS_EXCLUDED.
  const userExcluded = pathGlobFilter(options.exclude ?? []);
  const skipped: Record<string, number> = {};
  const candidates: CandidateFile[] = [];
  const configFiles: string[] = [];
  const paths = await listPaths(root);
  const wanted: Array<{ path: string; language: string }> = [];
  for (const path of paths) {
    if (always(path) || userExcluded(path)) continue;
    const base = path.slice(path.lastIndexOf('/') + 1);
    if (CONFIG_FILES.has(base)) configFiles.push(path);
    const pack = languageFor(path, languages);
    if (pack) wanted.push({ path, language: pack.name });
  }
  const realRoot = await realpath(root);
  const count = (reason: string) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  // A file is where its path says when no directory on the way is a link (its directory's real path is the one
  // the path names: one realpath per directory) and it is no link itself (its lstat, which is then its stat).
  // Only then is `whereabouts`, a realpath per file, skipped; the lstat costs one system call, the realpath one
  // per path component.
  const directoryIsReal = new Map<string, Promise<boolean>>();
  const isReal = (directory: string): Promise<boolean> => {
    let real = directoryIsReal.get(directory);
    if (real === undefined) {
      const expected = directory === '.' ? realRoot : join(realRoot, directory);
      real = realpath(join(root, directory)).then(
        (resolved) => resolved === expected,
        () => false,
      );
      directoryIsReal.set(directory, real);
    }
    return real;
  };
  const BATCH = 256;
  for (let i = 0; i < wanted.length; i += BATCH) {
    const found = await Promise.all(
      wanted.slice(i, i + BATCH).map(async ({ path }) => {
        const absolute = join(root, path);
        if (await isReal(dirname(path))) {
          const info = await lstat(absolute).catch(() => null);
          if (!info) return { place: 'missing' as const, info: null };
          if (!info.isSymbolicLink()) return { place: 'inside' as const, info };
        }
        const place = await whereabouts(realRoot, absolute);
        return { place, info: place === 'inside' ? await stat(absolute).catch(() => null) : null };
      }),
    );
    found.forEach(({ place, info }, offset) => {
      const { path, language } = wanted[i + offset]!;
      if (place === 'outside') return void count(SYMLINK_OUTSIDE);
      if (place === 'loop') return void count(SYMLINK_LOOP);
      if (!info || !info.isFile()) return; // deleted in the work tree but still tracked: not there to index
      if (info.size > maxBytes) count('too-large');
      else candidates.push({ path, size: info.size, mtimeMs: info.mtimeMs, language });
    });
  }
  return { candidates, configFiles, skipped };
}
