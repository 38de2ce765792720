#!/usr/bin/env node
// What a recon answer costs the agent: bytes and estimated tokens (chars / 4) of the text and the
// structured copy, at the default budget, over the visible recon sets; beside file Recall@5 and MRR
// of the budgeted answer and of the unbudgeted ranking (the pipeline's full result list) in the same run.
// usage: node bench/answers/run.mjs [--sets issues,flask,express,zod] [--limit N] [--budget TOKENS]
import { join } from 'node:path';
import { benchArgs } from '../cli-args.mjs';
import { loadSet } from '../recon/data.mjs';
import { fileMetrics, filesOf, mean, percentile } from '../recon/metrics.mjs';
import { SOURCE_FILE, inCommitOrder, seedIndex, sourceFiles, treeOf } from '../recon/trees.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const { values } = benchArgs(import.meta.url, {
  options: {
    sets: { type: 'string', default: 'issues,flask,express,zod' },
    limit: { type: 'string', default: '0' },
    budget: { type: 'string' },
  },
});
const engine = await import('../recon/engine.mjs');
const { shapeReconAnswer, DEFAULT_RECON_BUDGET_TOKENS } = await import(join(ROOT, 'server/dist/src/recon/answer.js'));
const { nearestNames } = await import(join(ROOT, 'server/dist/src/recon/nearest-names.js'));
const budget = Number(values.budget ?? DEFAULT_RECON_BUDGET_TOKENS);
const fence = (path) =>
  ({ ts: 'ts', tsx: 'tsx', js: 'js', jsx: 'jsx', mjs: 'js', cjs: 'js', py: 'python' })[path.split('.').pop()] ?? '';

const summary = [];
for (const set of values.sets.split(',')) {
  const loaded = loadSet(set, Number(values.limit) || 0);
  const acc = { all: [], unsat: [], shaped: [], full: [], skipped: 0 };
  let current = null;
  for (const row of inCommitOrder(loaded.rows.filter((r) => r.sha))) {
    if (!current || current.key !== `${row.repo}@${row.sha}`) {
      await current?.recon.close();
      const previous = current?.repo === row.repo ? current.dir : null;
      const dir = treeOf(row.repo, row.sha);
      seedIndex(dir, previous);
      current = {
        key: `${row.repo}@${row.sha}`,
        repo: row.repo,
        dir,
        files: new Set(sourceFiles(dir)),
        recon: await engine.open(dir),
      };
    }
    const gold = row.gold.filter((g) => SOURCE_FILE.test(g) && current.files.has(g));
    if (gold.length === 0) {
      acc.skipped += 1;
      continue;
    }
    const { result } = await current.recon.query(row.task);
    const nearest =
      result.gate === 'UNSAT' ? nearestNames(result.metrics.gate_features.mentions_missing, current.recon.view()) : {};
    const { answer, text } = shapeReconAnswer(result, {
      budgetTokens: budget,
      verbose: false,
      fenceLanguage: fence,
      nearest,
    });
    const size = {
      gate: result.gate,
      text: Buffer.byteLength(text),
      structured: Buffer.byteLength(JSON.stringify(answer)),
    };
    acc.all.push(size);
    if (result.gate === 'UNSAT') acc.unsat.push(size);
    acc.shaped.push(fileMetrics(filesOf(answer.results), gold));
    acc.full.push(fileMetrics(filesOf(result.results), gold));
    console.log(
      JSON.stringify({ set, id: row.id, ...size, r5: acc.shaped.at(-1).r5, r5_unbudgeted: acc.full.at(-1).r5 }),
    );
  }
  await current?.recon.close();
  const sizes = (list, key) => ({
    median: percentile(
      list.map((s) => s[key]),
      50,
    ),
    p95: percentile(
      list.map((s) => s[key]),
      95,
    ),
  });
  const entry = {
    set,
    rows: acc.all.length,
    skipped: acc.skipped,
    budget_tokens: budget,
    text_bytes: sizes(acc.all, 'text'),
    structured_bytes: sizes(acc.all, 'structured'),
    unsat: {
      rows: acc.unsat.length,
      text_bytes: sizes(acc.unsat, 'text'),
      structured_bytes: sizes(acc.unsat, 'structured'),
    },
    r5: mean(acc.shaped.map((m) => m.r5)),
    mrr: mean(acc.shaped.map((m) => m.rr)),
    r5_unbudgeted: mean(acc.full.map((m) => m.r5)),
    mrr_unbudgeted: mean(acc.full.map((m) => m.rr)),
  };
  console.log(JSON.stringify({ summary: entry }));
  summary.push(entry);
}

const kb = (b) => (b === null ? '-' : `${(b / 1024).toFixed(1)} KB (${Math.round(b / 4)} tok)`);
const f = (x) => x.toFixed(3);
const table = [
  '| set | rows | text median | text p95 | structured median | structured p95 ' +
    '| UNSAT rows | UNSAT text p95 | UNSAT structured p95 | R@5 (unbudgeted) ' +
    '| MRR (unbudgeted) |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
  ...summary.map(
    (s) =>
      `| ${s.set} | ${s.rows} | ${kb(s.text_bytes.median)} | ` +
      `${kb(s.text_bytes.p95)} | ${kb(s.structured_bytes.median)} | ` +
      `${kb(s.structured_bytes.p95)} | ${s.unsat.rows} | ` +
      `${kb(s.unsat.text_bytes.p95)} | ${kb(s.unsat.structured_bytes.p95)} | ` +
      `${f(s.r5)} (${f(s.r5_unbudgeted)}) | ` +
      `${f(s.mrr)} (${f(s.mrr_unbudgeted)}) |`,
  ),
];
console.log(
  `\n${table.join('\n')}\n\ntargets: text median ≤ 24 KB, p95 ≤ 32 KB, structured ` +
    `≤ text, UNSAT ≤ 4 KB; R@5 within 1 point of the unbudgeted ranking\ncommand: ` +
    `node bench/answers/run.mjs ${process.argv.slice(2).join(' ')}`,
);
