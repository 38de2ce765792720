#!/usr/bin/env node
// recon's gate rates only (no baselines, no retrieval metrics): the visible sets' rows on their own base
// trees, and the off-topic set (see offtopic.mjs). The gate does not change the ranking, so a gate
// change is measured with this; run.mjs measures both.
// usage: node bench/recon/gates.mjs [--sets zod,flask,express,issues] [--limit N] [--offtopic pairs|none]
import { benchArgs } from '../cli-args.mjs';
import { loadSet } from './data.mjs';
import { DEFAULT_OFFTOPIC } from './offtopic.mjs';
import { inCommitOrder, seedIndex, sourceFiles, SOURCE_FILE, treeOf } from './trees.mjs';

const { values } = benchArgs(import.meta.url, {
  options: {
    sets: { type: 'string', default: 'zod,flask,express,issues' },
    limit: { type: 'string', default: '0' },
    offtopic: { type: 'string', default: DEFAULT_OFFTOPIC },
  },
});
const limit = Number(values.limit) || 0;
const engine = await import('./engine.mjs');
const GATES = ['UNSAT', 'BROAD', 'AMBIG', 'OK'];
const table = [];
const percent = (n, rows) => `${((100 * n) / Math.max(1, rows)).toFixed(1)}%`;
const line = (label, gates, rows) =>
  table.push(`| ${label} | ${rows} | ${GATES.map((g) => percent(gates[g] ?? 0, rows)).join(' | ')} ` + `|`);

for (const set of values.sets.split(',').filter(Boolean)) {
  const rows = inCommitOrder(loadSet(set, limit).rows.filter((r) => r.sha));
  const gates = {};
  let counted = 0;
  let current = null;
  for (const row of rows) {
    if (current?.key !== `${row.repo}@${row.sha}`) {
      await current?.recon?.close();
      const previous = current?.repo === row.repo ? current.dir : null;
      let dir = null;
      try {
        dir = treeOf(row.repo, row.sha);
      } catch (error) {
        console.error(`skipped ${row.id}: ${String(error.message).split('\n')[0]}`);
      }
      if (dir) seedIndex(dir, previous);
      current = {
        key: `${row.repo}@${row.sha}`,
        repo: row.repo,
        dir,
        files: dir ? new Set(sourceFiles(dir)) : null,
        recon: dir ? await engine.open(dir) : null,
      };
    }
    // The same rows as run.mjs: a row without a gold source file at its base is skipped there too.
    if (!current.recon || !row.gold.some((g) => SOURCE_FILE.test(g) && current.files.has(g))) continue;
    const run = await current.recon.query(row.task);
    gates[run.result.gate] = (gates[run.result.gate] ?? 0) + 1;
    counted += 1;
    console.log(JSON.stringify({ set, id: row.id, gate: run.result.gate, features: run.result.metrics.gate_features }));
  }
  await current?.recon?.close();
  line(set, gates, counted);
}
let offRows = 0;
let offUnsat = 0;
// Why an off-topic task is not UNSAT, from its gate features: what of it this repository lacks.
const why = {};
const whyOf = (f) => {
  const absent = f.words_missing.length + f.mentions_missing.length;
  const present = f.words_known + f.mentions_found.length;
  if (absent === 0) return 'nothing in the task is missing here (every name exists, the other words are generic)';
  if (absent < 3) return '1-2 missing names or distinctive words';
  if (present > 2 || absent < 2 * present) return '3+ missing, but names or distinctive words of this repository too';
  return '3+ missing, the other words not rare here (word_rarity above the threshold)';
};
if (values.offtopic !== 'none')
  for (const pair of values.offtopic.split(',')) {
    const [tasks, target] = pair.split(':');
    const all = inCommitOrder(loadSet(target, 0).rows.filter((r) => r.sha));
    const tree = all[all.length - 1];
    const recon = await engine.open(treeOf(tree.repo, tree.sha));
    const gates = {};
    const rows = loadSet(tasks, limit).rows;
    for (const row of rows) {
      const run = await recon.query(row.task);
      gates[run.result.gate] = (gates[run.result.gate] ?? 0) + 1;
      const features = run.result.metrics.gate_features;
      if (run.result.gate !== 'UNSAT') why[whyOf(features)] = (why[whyOf(features)] ?? 0) + 1;
      console.log(JSON.stringify({ offtopic: pair, id: row.id, gate: run.result.gate, features }));
    }
    await recon.close();
    line(`off-topic: ${tasks} tasks on ${target} (${tree.repo}@${tree.sha.slice(0, 7)})`, gates, rows.length);
    offRows += rows.length;
    offUnsat += gates.UNSAT ?? 0;
  }
console.log(
  `\n| set | rows | UNSAT | BROAD | AMBIG | OK |\n|---|---|---|---|---|---|\n${table.join('\n')}\n` +
    (offRows ? `\noff-topic UNSAT: ${offUnsat}/${offRows} (${((100 * offUnsat) / offRows).toFixed(1)}%)\n` : '') +
    (offRows
      ? `\noff-topic tasks not UNSAT, by why:\n${Object.entries(why)
          .sort((a, b) => b[1] - a[1])
          .map(([reason, n]) => `- ${n} (${percent(n, offRows)} of all): ${reason}`)
          .join('\n')}\n`
      : '') +
    `\ncommand: node bench/recon/gates.mjs ${process.argv.slice(2).join(' ')}`,
);
