#!/usr/bin/env node
// Checks the graph algorithms against networkx on the import graph of a real repository.
// usage: node bench/graph/compare-networkx.mjs [repo-dir ...]   (default: bench/.work/zod bench/.work/vue)
// Prints one JSON object per repository, then a summary table and the command that reproduces it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@agentgov/core';
import { LANGUAGE_PACKS as PYTHON } from '@agentgov/plugin-language-python';
import { LANGUAGE_PACKS as ECMASCRIPT } from '@agentgov/plugin-language-typescript';
import { communities, cycles, openRepositoryIndex, pagerank } from '@agentgov/server';

const here = dirname(fileURLToPath(import.meta.url));
const work = resolve(here, '../.work');
const repos = process.argv.slice(2).length > 0 ? process.argv.slice(2) : [join(work, 'zod'), join(work, 'vue')];
const TOP = 10;
const MODULARITY_TOLERANCE = 0.03;

const sameSccs = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const rows = [];
for (const repo of repos) {
  const index = await openRepositoryIndex({
    root: repo,
    languages: [...ECMASCRIPT, ...PYTHON],
    logger: createLogger({ level: 'WARNING' }),
  });
  await index.ready;
  const graph = index.fileGraph();
  const ours = {
    sccs: cycles(graph).sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    pagerank: pagerank(graph),
    louvain: communities(graph, 1.0),
  };
  const partition = {};
  ours.louvain.communities.forEach((members, community) => members.forEach((node) => (partition[node] = community)));
  const exported = {
    nodes: graph.nodes(),
    edges: graph.mapEdges((_edge, attributes, source, target) => [source, target, attributes.weight]),
    ours: { partition },
  };
  mkdirSync(work, { recursive: true });
  const file = join(work, `graph-${basename(repo)}.json`);
  writeFileSync(file, JSON.stringify(exported));
  const reference = JSON.parse(
    execFileSync('python3', [join(here, 'networkx_reference.py'), file], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    }),
  );
  const ourTop = ours.pagerank.slice(0, TOP).map((entry) => entry.node);
  const theirTop = reference.pagerank.slice(0, TOP).map(([node]) => node);
  const maxScoreDelta = Math.max(
    ...ours.pagerank.map((entry) => Math.abs(entry.score - Object.fromEntries(reference.pagerank)[entry.node])),
  );
  const modularityDelta =
    Math.abs(ours.louvain.modularity - reference.louvain.modularity) / Math.abs(reference.louvain.modularity);
  const row = {
    repo: basename(repo),
    nodes: graph.order,
    edges: graph.size,
    sccs: ours.sccs.length,
    scc_sizes: ours.sccs.map((component) => component.length),
    sccs_identical: sameSccs(ours.sccs, reference.sccs),
    pagerank_top10_identical: JSON.stringify(ourTop) === JSON.stringify(theirTop),
    pagerank_max_abs_delta: maxScoreDelta,
    modularity_graphology: ours.louvain.modularity,
    modularity_networkx: reference.louvain.modularity,
    modularity_of_our_partition_by_networkx: reference.our_partition_modularity,
    modularity_rel_delta: modularityDelta,
    communities_graphology: ours.louvain.communities.length,
    communities_networkx: reference.louvain.communities,
    pass:
      sameSccs(ours.sccs, reference.sccs) &&
      JSON.stringify(ourTop) === JSON.stringify(theirTop) &&
      modularityDelta <= MODULARITY_TOLERANCE,
    top10: ourTop,
  };
  if (!row.pagerank_top10_identical) row.top10_networkx = theirTop;
  console.log(JSON.stringify(row));
  rows.push(row);
  await index.close();
}

console.log(
  '\n| repo | nodes | edges | SCCs (sizes) | SCCs identical | top-10 PageRank ' +
    'identical | max ΔPR | modularity graphology | modularity networkx | Δ | ' +
    'pass |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.repo} | ${r.nodes} | ${r.edges} | ` +
      `${r.sccs} (${r.scc_sizes.join(', ')}) | ` +
      `${r.sccs_identical} | ${r.pagerank_top10_identical} | ` +
      `${r.pagerank_max_abs_delta.toExponential(1)} | ` +
      `${r.modularity_graphology.toFixed(4)} | ` +
      `${r.modularity_networkx.toFixed(4)} | ` +
      `${(r.modularity_rel_delta * 100).toFixed(2)}% | ` +
      `${r.pass} |`,
  );
}
console.log(`\nreproduce: node bench/graph/compare-networkx.mjs ${process.argv.slice(2).join(' ')}`.trimEnd());
process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
