#!/usr/bin/env node
// recon quality and latency against two whole-file BM25 baselines on the visible data sets.
// usage: node bench/recon/run.mjs [--sets issues,flask,express,zod] [--limit N] [--grep REGEX] [--ids FILE]
//        [--baselines-only] [--no-seed] [--out FILE]
//        [--offtopic zod:flask,flask:zod,express:zod,issues:zod | --offtopic none]
//
// The off-topic set runs each `tasks:target` pair's tasks against the newest base tree of the target set
// (another repository): recon should answer UNSAT there. Its gate rates print under the table.
//
// --grep keeps the rows whose task matches REGEX (case-insensitive): to measure a change that can only alter the
// answers of such rows (a query rule), old code against new on those rows alone; --ids FILE keeps the rows whose id
// (commit sha or instance id) is a line of FILE. Neither is a headline figure.
//
// Trees are visited in commit order per repository. A tree without an index is seeded with a copy of
// the previous tree's index (--no-seed: index every tree from scratch); opening it then re-parses
// only the files whose content differs, which is the index's normal incremental path.
import { benchArgs } from '../cli-args.mjs';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadSet } from './data.mjs';
import { FileBm25 } from './baseline.mjs';
import { fileMetrics, filesOf, mean, percentile } from './metrics.mjs';
import { SOURCE_FILE, inCommitOrder, seedIndex, sourceFiles, treeOf } from './trees.mjs';
import { DEFAULT_OFFTOPIC } from './offtopic.mjs';

const { values } = benchArgs(import.meta.url, {
  options: {
    sets: { type: 'string', default: 'issues,flask,express,zod' },
    limit: { type: 'string', default: '0' },
    grep: { type: 'string' },
    ids: { type: 'string' },
    'baselines-only': { type: 'boolean', default: false },
    out: { type: 'string' },
    'no-seed': { type: 'boolean', default: false },
    offtopic: { type: 'string', default: DEFAULT_OFFTOPIC },
  },
});
const limit = Number(values.limit) || 0;
const grep = values.grep === undefined ? undefined : new RegExp(values.grep, 'i');
const ids =
  values.ids === undefined
    ? undefined
    : new Set(
        readFileSync(values.ids, 'utf8')
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
      );
const engine = values['baselines-only'] ? null : await import('./engine.mjs');
const summary = [];
const lines = [];
const emit = (obj) => {
  const line = JSON.stringify(obj);
  lines.push(line);
  console.log(line);
};

for (const set of values.sets.split(',').filter(Boolean)) {
  const loaded = loadSet(set, limit);
  const total = loaded.total;
  const picked = loaded.rows.filter((r) => (!grep || grep.test(r.task)) && (!ids || ids.has(r.id)));
  if (grep || ids) console.error(`${set}: ${picked.length} of ${loaded.rows.length} rows picked by --grep/--ids`);
  const rows = picked.filter((r) => r.sha);
  const noBase = picked.length - rows.length;
  const acc = {
    base: [],
    path: [],
    recon: [],
    gates: {},
    latency: [],
    cold: [],
    index: [],
    skipped: noBase,
    unextractable: 0,
    rows: 0,
    vendoredRows: 0,
    top5Vendored: 0,
    top5VendoredRows: 0,
  };
  // Same tree for neighbouring rows, trees in commit order: every tree is prepared once, and a
  // tree's index can be seeded from its predecessor's.
  const ordered = inCommitOrder(rows);
  let current = null;
  const seeded = { seeded: 0, reused: 0, cold: 0 };
  for (const row of ordered) {
    if (!current || current.key !== `${row.repo}@${row.sha}`) {
      current?.bm25?.close();
      await current?.recon?.close();
      const previous = current?.repo === row.repo ? current.dir : null;
      let dir;
      try {
        dir = treeOf(row.repo, row.sha);
      } catch (error) {
        // A tree that cannot be extracted (a sha missing from the mirror, a full disk) loses its rows, counted.
        current = {
          key: `${row.repo}@${row.sha}`,
          repo: row.repo,
          dir: null,
          failed: String(error?.message ?? error).split('\n')[0],
        };
      }
      if (dir) {
        const files = sourceFiles(dir);
        if (engine) seeded[seedIndex(dir, values['no-seed'] ? null : previous)] += 1;
        current = {
          key: `${row.repo}@${row.sha}`,
          repo: row.repo,
          dir,
          files: new Set(files),
          bm25: new FileBm25(dir, files),
          recon: engine ? await engine.open(dir) : null,
        };
      }
      if (current.recon) acc.index.push(current.recon.index_ms);
    }
    if (current.failed) {
      acc.skipped += 1;
      acc.unextractable += 1;
      emit({ set, id: row.id, skipped: `tree not extractable: ${current.failed}` });
      continue;
    }
    const gold = row.gold.filter((g) => SOURCE_FILE.test(g) && current.files.has(g));
    if (gold.length === 0) {
      acc.skipped += 1;
      emit({ set, id: row.id, skipped: 'no gold source file at the base commit' });
      continue;
    }
    acc.rows += 1;
    const base = fileMetrics(current.bm25.rank(row.task, false), gold);
    const path = fileMetrics(current.bm25.rank(row.task, true), gold);
    acc.base.push(base);
    acc.path.push(path);
    const record = { set, id: row.id, gold, baseline: base, baseline_path: path };
    if (current.recon) {
      const run = await current.recon.query(row.task);
      const m = fileMetrics(filesOf(run.result.results), gold);
      acc.recon.push(m);
      acc.gates[run.result.gate] = (acc.gates[run.result.gate] ?? 0) + 1;
      acc.latency.push(run.warm_ms);
      acc.cold.push(run.cold_ms);
      const top = filesOf(run.result.results).slice(0, 5);
      // Vendored demotions: top-5 files demoted as vendored, and gold files the classes call vendored (demoted
      // wrongly).
      const vendoredTop = top.filter((file) =>
        run.result.results.some((r) => r.path === file && r.why?.some((w) => w.startsWith('demoted: vendored'))),
      );
      const goldVendored = gold.filter((file) => current.recon.view().fileClass?.(file)?.kind === 'vendored');
      acc.vendoredRows += goldVendored.length > 0 ? 1 : 0;
      acc.top5Vendored += vendoredTop.length;
      acc.top5VendoredRows += vendoredTop.length > 0 ? 1 : 0;
      Object.assign(record, {
        recon: m,
        gate: run.result.gate,
        ms: run.warm_ms,
        top_files: top,
        top5_vendored: vendoredTop.length,
        gold_vendored: goldVendored.length,
      });
    }
    emit(record);
  }
  current?.bm25?.close();
  await current?.recon?.close();
  const agg = (list) => ({
    r1: mean(list.map((m) => m.r1)),
    r5: mean(list.map((m) => m.r5)),
    r10: mean(list.map((m) => m.r10)),
    mrr: mean(list.map((m) => m.rr)),
  });
  const entry = {
    set,
    rows: acc.rows,
    total,
    skipped: acc.skipped,
    unextractable: acc.unextractable,
    baseline: agg(acc.base),
    baseline_path: agg(acc.path),
  };
  if (engine)
    Object.assign(entry, {
      recon: agg(acc.recon),
      gates: acc.gates,
      unsat_rate: (acc.gates.UNSAT ?? 0) / Math.max(1, acc.rows),
      rows_with_vendored_gold: acc.vendoredRows,
      top5_vendored: { files: acc.top5Vendored, rows: acc.top5VendoredRows },
      p50_ms: percentile(acc.latency, 50),
      p95_ms: percentile(acc.latency, 95),
      cold_p50_ms: percentile(acc.cold, 50),
      trees: { ...seeded, index_p50_ms: percentile(acc.index, 50) },
    });
  emit({ summary: entry });
  summary.push(entry);
}

// Off-topic: each pair's tasks against the newest base tree of another set's repository.
const offtopic = [];
if (engine && values.offtopic !== 'none') {
  for (const pair of values.offtopic.split(',')) {
    const [tasks, target] = pair.split(':');
    const all = inCommitOrder(loadSet(target, 0).rows.filter((r) => r.sha));
    const tree = all[all.length - 1];
    const dir = treeOf(tree.repo, tree.sha);
    seedIndex(dir, null);
    const recon = await engine.open(dir);
    const gates = {};
    const rows = loadSet(tasks, limit).rows;
    for (const row of rows) {
      const run = await recon.query(row.task);
      gates[run.result.gate] = (gates[run.result.gate] ?? 0) + 1;
      emit({ offtopic: `${tasks}:${target}`, id: row.id, gate: run.result.gate });
    }
    await recon.close();
    const entry = {
      tasks,
      target,
      repo: tree.repo,
      sha: tree.sha,
      rows: rows.length,
      gates,
      unsat_rate: (gates.UNSAT ?? 0) / Math.max(1, rows.length),
    };
    emit({ offtopic_summary: entry });
    offtopic.push(entry);
  }
}

const f = (x) => (x === undefined || x === null ? '-' : typeof x === 'number' ? x.toFixed(3) : String(x));
const table = [
  '| set | rows | system | R@1 | R@5 | R@10 | MRR | gates | p50 ms | p95 ms |',
  '|---|---|---|---|---|---|---|---|---|---|',
];
for (const s of summary) {
  table.push(
    `| ${s.set} | ${s.rows}/${s.total} | bm25 files | ` +
      `${f(s.baseline.r1)} | ${f(s.baseline.r5)} | ` +
      `${f(s.baseline.r10)} | ${f(s.baseline.mrr)} | | | |`,
  );
  table.push(
    `| ${s.set} | | bm25 files + path boost | ` +
      `${f(s.baseline_path.r1)} | ${f(s.baseline_path.r5)} | ` +
      `${f(s.baseline_path.r10)} | ${f(s.baseline_path.mrr)} | | | |`,
  );
  if (s.recon) {
    const stronger = s.baseline_path.r5 >= s.baseline.r5 ? s.baseline_path : s.baseline;
    const cut = stronger.r5 < 1 ? 1 - (1 - s.recon.r5) / (1 - stronger.r5) : 0;
    const gates = `${Object.entries(s.gates)
      .map(([g, n]) => `${g} ${n}`)
      .join(', ')} (UNSAT ${(s.unsat_rate * 100).toFixed(1)}%)`;
    table.push(
      `| ${s.set} | | **recon** (misses@5 cut ` +
        `${(cut * 100).toFixed(0)}%) | ${f(s.recon.r1)} | ` +
        `${f(s.recon.r5)} | ${f(s.recon.r10)} | ` +
        `${f(s.recon.mrr)} | ${gates} | ${f(s.p50_ms)} | ` +
        `${f(s.p95_ms)} |`,
    );
  }
}
const pct = (n, d) => `${((100 * n) / Math.max(1, d)).toFixed(1)}%`;
table.push('', '| set | rows | UNSAT | BROAD | AMBIG | OK |', '|---|---|---|---|---|---|');
for (const s of summary)
  if (s.gates)
    table.push(
      `| ${s.set} | ${s.rows} | ` +
        `${['UNSAT', 'BROAD', 'AMBIG', 'OK'].map((g) => pct(s.gates[g] ?? 0, s.rows)).join(' | ')} |`,
    );
for (const o of offtopic)
  table.push(
    `| off-topic: ${o.tasks} tasks on ${o.target} (` +
      `${o.repo}@${o.sha.slice(0, 7)}) | ${o.rows} | ` +
      `${['UNSAT', 'BROAD', 'AMBIG', 'OK'].map((g) => pct(o.gates[g] ?? 0, o.rows)).join(' | ')} ` +
      `|`,
  );
if (offtopic.length) {
  const rows = offtopic.reduce((n, o) => n + o.rows, 0);
  const unsat = offtopic.reduce((n, o) => n + (o.gates.UNSAT ?? 0), 0);
  table.push('', `off-topic UNSAT: ${unsat}/${rows} (${pct(unsat, rows)})`);
}
const vendored = summary
  .filter((s) => s.rows_with_vendored_gold > 0)
  .map((s) => `${s.set} ${s.rows_with_vendored_gold}`);
if (vendored.length) table.push('', `rows whose gold file is classified vendored (demoted): ${vendored.join(', ')}`);
// Per row, `top5_vendored` in the JSON lines; here the sum per set, printed even when nothing was demoted.
const demoted = summary
  .filter((s) => s.top5_vendored)
  .map((s) => `${s.set} ${s.top5_vendored.files} in ${s.top5_vendored.rows}/${s.rows} rows`);
if (demoted.length) table.push('', `top-5 files demoted as vendored (per row: top5_vendored): ${demoted.join(', ')}`);
const unextractable = summary.filter((s) => s.unextractable > 0).map((s) => `${s.set} ${s.unextractable}`);
if (unextractable.length)
  table.push('', `rows skipped because their tree could not be extracted: ${unextractable.join(', ')}`);
console.log(`\n${table.join('\n')}\n\ncommand: node bench/recon/run.mjs ${process.argv.slice(2).join(' ')}`);
if (values.out) writeFileSync(values.out, `${lines.join('\n')}\n`);
