// Base trees of benchmark repositories: `git archive <sha> | tar -x`, cached by sha under bench/.work.
import { execFileSync, execSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const WORK_DIR = new URL('../.work/', import.meta.url).pathname;
export const MIRRORS = process.env.RECON_BENCH_MIRRORS ?? '/work/.mirror';
export const SOURCE_FILE = /\.(py|js|jsx|mjs|cjs|ts|tsx|mts|cts|rs|java|go)$/;
const MAX_FILE_BYTES = 1024 * 1024;
const SKIP_DIRS = new Set(['node_modules', '.git', '.agentgov', 'dist', 'build', 'coverage']);

export function mirrorOf(repo) {
  const dir = join(MIRRORS, repo.replace('/', '+'), 'repo');
  if (!existsSync(dir))
    throw new Error(`no mirror for ${repo} at ${dir}: bring it with the search tool's fetch (github:${repo})`);
  return dir;
}

/** Extracts the tree of `sha` once (atomically, via a temp dir) and returns its directory. */
export function treeOf(repo, sha) {
  const dir = join(WORK_DIR, 'trees', repo.replace('/', '+'), sha);
  if (existsSync(dir)) return dir;
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    execSync(
      `set -o pipefail; git -C ${JSON.stringify(mirrorOf(repo))} archive ${sha} | tar -x -C ${JSON.stringify(tmp)}`,
      { shell: '/bin/bash', stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30 },
    );
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(
      `cannot extract ${repo}@${sha}: ${
        String(error.stderr ?? error.message)
          .trim()
          .split('\n')[0]
      }`,
    );
  }
  renameSync(tmp, dir);
  return dir;
}

/** Makes a tree a git repository with everything committed, for tools that read `git ls-files`. */
export function ensureGitRepo(dir) {
  if (existsSync(join(dir, '.git'))) return;
  const git = (...args) => execFileSync('git', ['-C', dir, ...args], { stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git(
    '-c',
    'user.name=bench',
    '-c',
    'user.email=bench@example.invalid',
    'commit',
    '-q',
    '--no-verify',
    '-m',
    'base tree',
  );
}

/** Source files of a tree (repo-relative), as the index sees them: source extensions, ≤ 1 MiB, no vendored dirs. */
export function sourceFiles(dir) {
  const out = [];
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(join(at, entry.name));
      } else if (
        entry.isFile() &&
        SOURCE_FILE.test(entry.name) &&
        statSync(join(at, entry.name)).size <= MAX_FILE_BYTES
      ) {
        out.push(relative(dir, join(at, entry.name)));
      }
    }
  };
  walk(dir);
  return out.sort();
}

export function readText(dir, path) {
  return readFileSync(join(dir, path), 'utf8');
}

/** Commit time (seconds) of every row's base sha, keyed `repo@sha`; one git call per repository. */
function commitTimes(rows) {
  const times = new Map();
  const byRepo = new Map();
  for (const row of rows) (byRepo.get(row.repo) ?? byRepo.set(row.repo, new Set()).get(row.repo)).add(row.sha);
  const show = (repo, shas) =>
    execFileSync('git', ['-C', mirrorOf(repo), 'show', '-s', '--format=%H %ct', ...shas], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  for (const [repo, shas] of byRepo) {
    let out;
    try {
      out = show(repo, [...shas]);
    } catch {
      // A sha the mirror lacks (or no mirror): date the others one by one; the unknown ones go last and fail at
      // extraction.
      out = [...shas]
        .map((sha) => {
          try {
            return show(repo, [sha]);
          } catch {
            return '';
          }
        })
        .join('');
    }
    for (const line of out.split('\n').filter(Boolean)) {
      const [sha, ct] = line.split(' ');
      times.set(`${repo}@${sha}`, Number(ct));
    }
  }
  return times;
}

/**
 * Rows sorted by repository, then by the commit time of their base sha (ties by sha): rows sharing a
 * tree are neighbours, and each tree follows the one it is most likely to resemble (see seedIndex).
 */
export function inCommitOrder(rows) {
  const times = commitTimes(rows);
  const time = (row) => times.get(`${row.repo}@${row.sha}`) ?? Number.MAX_SAFE_INTEGER;
  return [...rows].sort((a, b) => a.repo.localeCompare(b.repo) || time(a) - time(b) || a.sha.localeCompare(b.sha));
}

/**
 * Gives a tree without an index a copy of `from`'s index (a closed index, so its WAL is folded in).
 * Returns what happened: 'reused' (the tree has its own index), 'seeded' or 'cold' (nothing to copy).
 */
export function seedIndex(dir, from) {
  const target = join(dir, '.agentgov', 'index.db');
  if (existsSync(target)) return 'reused';
  const source = from ? join(from, '.agentgov', 'index.db') : null;
  if (!source || !existsSync(source) || existsSync(`${source}-wal`)) return 'cold';
  mkdirSync(join(dir, '.agentgov'), { recursive: true });
  copyFileSync(source, `${target}.tmp-${process.pid}`);
  renameSync(`${target}.tmp-${process.pid}`, target);
  return 'seeded';
}
