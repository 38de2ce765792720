// Loads the visible recon data sets of shared/bench as uniform rows: { set, id, repo, sha, task, gold }; and
// commit sets read from a fetched mirror at run time (never committed): `vue`, vuejs/core, a pnpm workspace;
// `gson`, google/gson, a Maven multi-module Java project.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DATA_DIR = process.env.RECON_BENCH_DATA ?? '/work/shared/bench/data';

export const SETS = {
  issues: {
    file: 'recon-issues.jsonl',
    row: (r) => ({
      id: r.instance_id,
      repo: r.repo,
      sha: r.base_commit,
      task: r.problem_statement,
      gold: r.gold_files,
    }),
  },
  flask: {
    file: 'recon-commits-pallets+flask.jsonl',
    row: (r) => ({ id: r.sha, repo: 'pallets/flask', sha: r.parent, task: r.message, gold: r.gold_files }),
  },
  express: {
    file: 'recon-commits-expressjs+express.jsonl',
    row: (r) => ({ id: r.sha, repo: 'expressjs/express', sha: r.parent, task: r.message, gold: r.gold_files }),
  },
  zod: {
    file: 'recon-commits-colinhacks+zod.jsonl',
    row: (r) => ({ id: r.sha, repo: 'colinhacks/zod', sha: r.parent, task: r.message, gold: r.gold_files }),
  },
};

/**
 * Commit sets built from a mirror the way shared/bench built its commit sets: the most recent `count`
 * non-merge commits of the mirror's HEAD touching 1–3 source files (test files do not count) with a message of 8+
 * words; the task is the
 * message, the gold files the source files it changed, the tree its parent.
 */
export const MIRROR_SETS = {
  vue: { repo: 'vuejs/core', count: 150 },
  ripgrep: { repo: 'BurntSushi/ripgrep', count: 150 },
  gson: { repo: 'google/gson', count: 150 },
  gin: { repo: 'gin-gonic/gin', count: 150 },
};
const SOURCE = /\.(py|js|jsx|mjs|cjs|ts|tsx|mts|cts|rs|java|go)$/;
/** Test files are not "source files" here, as in shared/bench's commit sets (their gold files hold no tests). */
const TEST = new RegExp(
  String.raw`(?:^|\/)(?:__tests__|tests?|dts-test|test-dts|` +
    String.raw`type-tests)\/|\.(?:spec|test|test-d)\.[cm]?[jt]sx?$|` +
    String.raw`(?:^|\/)test_[^/]*\.py$|(?:Test|Tests|IT)\.java$|` +
    String.raw`_test\.go$`,
);

function mirrorRows(name) {
  const { repo, count } = MIRROR_SETS[name];
  const mirror = join(process.env.RECON_BENCH_MIRRORS ?? '/work/.mirror', repo.replace('/', '+'), 'repo');
  const log = execFileSync(
    'git',
    ['-C', mirror, 'log', '--no-merges', '-n', '3000', '--format=%x00%H %P%x01%B%x01', '--name-only'],
    { encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  const rows = [];
  for (const entry of log.split('\0').slice(1)) {
    const [head, message, names] = entry.split('\x01');
    const [sha, parent] = head.trim().split(' ');
    const task = message.trim();
    const gold = names
      .split('\n')
      .map((n) => n.trim())
      .filter((n) => SOURCE.test(n) && !TEST.test(n));
    if (!parent || gold.length < 1 || gold.length > 3 || task.split(/\s+/).length < 8) continue;
    rows.push({ set: name, id: sha, repo, sha: parent, task, gold });
    if (rows.length === count) break;
  }
  return rows;
}

/** Rows of one set; `limit` keeps an evenly spaced, deterministic sample (every k-th row). */
export function loadSet(name, limit) {
  const spec = SETS[name];
  if (!spec && !MIRROR_SETS[name])
    throw new Error(
      `unknown data set '${name}' (known: ${[...Object.keys(SETS), ...Object.keys(MIRROR_SETS)].join(', ')})`,
    );
  const rows = spec
    ? readFileSync(join(DATA_DIR, spec.file), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => ({ set: name, ...spec.row(JSON.parse(line)) }))
    : mirrorRows(name);
  if (!limit || rows.length <= limit) return { rows, total: rows.length };
  const step = rows.length / limit;
  return { rows: Array.from({ length: limit }, (_, i) => rows[Math.floor(i * step)]), total: rows.length };
}
