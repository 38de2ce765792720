// Loads the visible recon data sets of shared/bench as uniform rows: { set, id, repo, sha, task, gold }.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DATA_DIR = process.env.RECON_BENCH_DATA ?? '/work/shared/bench/data';

export const SETS = {
  issues: { file: 'recon-issues.jsonl', row: (r) => ({ id: r.instance_id, repo: r.repo, sha: r.base_commit, task: r.problem_statement, gold: r.gold_files }) },
  flask: { file: 'recon-commits-pallets+flask.jsonl', row: (r) => ({ id: r.sha, repo: 'pallets/flask', sha: r.parent, task: r.message, gold: r.gold_files }) },
  express: { file: 'recon-commits-expressjs+express.jsonl', row: (r) => ({ id: r.sha, repo: 'expressjs/express', sha: r.parent, task: r.message, gold: r.gold_files }) },
  zod: { file: 'recon-commits-colinhacks+zod.jsonl', row: (r) => ({ id: r.sha, repo: 'colinhacks/zod', sha: r.parent, task: r.message, gold: r.gold_files }) },
};

/** Rows of one set; `limit` keeps an evenly spaced, deterministic sample (every k-th row). */
export function loadSet(name, limit) {
  const spec = SETS[name];
  if (!spec) throw new Error(`unknown data set '${name}' (known: ${Object.keys(SETS).join(', ')})`);
  const rows = readFileSync(join(DATA_DIR, spec.file), 'utf8').split('\n').filter(Boolean).map((line) => ({ set: name, ...spec.row(JSON.parse(line)) }));
  if (!limit || rows.length <= limit) return { rows, total: rows.length };
  const step = rows.length / limit;
  return { rows: Array.from({ length: limit }, (_, i) => rows[Math.floor(i * step)]), total: rows.length };
}
