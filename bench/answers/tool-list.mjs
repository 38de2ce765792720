#!/usr/bin/env node
// What every agent session pays before its first call: the bytes of `tools/list` (total and per tool:
// description, input schema, output schema), from the real `agentgov serve` over stdio; and whether the
// listing still lets an agent choose the right tool: 32 fixed agent intents, each with the tool it
// needs, scored by a deterministic lexical match (BM25 over each tool's name + description) of the
// intent against every listed tool. Top-1 accuracy and MRR say how much choosing text survived.
// usage: node bench/answers/tool-list.mjs [--repo DIR] [--main cli/dist/src/main.js] [--verbose]
import { benchArgs } from '../cli-args.mjs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServe } from './serve-client.mjs';

const { values } = benchArgs(import.meta.url, {
  options: { repo: { type: 'string' }, main: { type: 'string' }, verbose: { type: 'boolean', default: false } },
});

/** Intents as an agent would phrase them, written before the descriptions were shortened; never tuned to them. */
export const INTENTS = [
  ['get an overview of this unfamiliar repository and its structure', 'recon_scout'],
  ['which directories and languages does the project have', 'recon_scout'],
  ['what are the main entry points and most important files of the codebase', 'recon_scout'],
  ['find the code that handles session cookie expiry', 'recon'],
  ['where is the retry logic for failed HTTP requests implemented', 'recon'],
  ['locate the function that parses the configuration file', 'recon'],
  ['find the definition of the class named RequestHandler', 'recon'],
  ['find all callers of parseConfig before I change its signature', 'recon_impact'],
  ['what references this class, who uses it', 'recon_impact'],
  ['which files import src/utils/date.ts', 'recon_impact'],
  ['what definitions changed between main and my branch', 'semantic_diff'],
  ['show which functions were modified since the last commit', 'semantic_diff'],
  ['are there circular import dependencies', 'graph_cycles'],
  ['list every import cycle in full', 'graph_cycles'],
  ['which modules cluster together, where does new code belong', 'graph_communities'],
  ['group files into modules based on the dependency graph', 'graph_communities'],
  ['rename the function getUser to fetchUser everywhere', 'refactor_rename'],
  ['change the name of a class across the codebase', 'refactor_rename'],
  ['move lib/helpers.py to lib/text/format.py and fix the imports', 'refactor_move'],
  ['relocate a module into another directory without breaking importers', 'refactor_move'],
  ['apply the pending rename preview', 'refactor_commit'],
  ['discard the refactor preview, it is wrong', 'refactor_cancel'],
  ['run lint and the affected tests then commit my changes', 'checkpoint'],
  ['commit the work with a message and push it', 'checkpoint'],
  ['which tests could fail after I edited these files', 'blast_radius'],
  ['pick the few tests to run for my change instead of the whole suite', 'blast_radius'],
  ['which tests exercise each function in this file', 'covering_tests'],
  ['are the lines I am about to change covered by tests', 'recon_line_coverage'],
  ['show the uncovered lines of a file', 'recon_line_coverage'],
  ['load an lcov report produced by jest', 'coverage_import'],
  ['what does the error code E_PREVIEW_STALE mean', 'describe'],
  ['what parameters does a tool accept', 'describe'],
];

const STOP = new Set(
  (
    'a an and are as at be before by can do does each for from get i in into ' +
    'is it its me my of on or the their then these this to what when where which ' +
    'who with without you your'
  ).split(' '),
);
const stem = (w) =>
  w
    .replace(/(?:ies)$/, 'y')
    .replace(/(?:ing|ed|es|s)$/, '')
    .replace(/e$/, '');
export function tokens(text) {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP.has(w))
    .map(stem);
}

/** BM25 (k1 1.2, b 0.75) of each intent against the documents; the tools ranked best first. */
export function rankTools(intent, docs) {
  const n = docs.length;
  const avg = docs.reduce((s, d) => s + d.tokens.length, 0) / n;
  const df = new Map();
  for (const d of docs) for (const t of new Set(d.tokens)) df.set(t, (df.get(t) ?? 0) + 1);
  const scored = docs.map((d) => {
    let score = 0;
    for (const term of new Set(tokens(intent))) {
      const tf = d.tokens.filter((t) => t === term).length;
      if (!tf) continue;
      const idf = Math.log(1 + (n - df.get(term) + 0.5) / (df.get(term) + 0.5));
      score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * d.tokens.length) / avg));
    }
    return { name: d.name, score };
  });
  return scored.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name)).map((s) => s.name);
}

const repo = values.repo ?? mkdtempSync('/var/tmp/agentgov-bench-tool-list-');
if (!values.repo) writeFileSync(join(repo, 'README.md'), 'empty repository: tools/list does not depend on it\n');
const serve = await startServe(repo, values.main ? { main: values.main } : {});
const listing = await serve.client.listTools();
await serve.close();

const bytes = (x) => Buffer.byteLength(JSON.stringify(x ?? null));
const perTool = listing.tools.map((t) => ({
  name: t.name,
  description: Buffer.byteLength(t.description ?? ''),
  input: bytes(t.inputSchema),
  output: t.outputSchema ? bytes(t.outputSchema) : 0,
  total: bytes(t),
}));
const docs = listing.tools.map((t) => ({
  name: t.name,
  tokens: [...tokens(t.name), ...tokens(t.name), ...tokens(t.description ?? '')],
}));
let hits = 0;
let rr = 0;
const misses = [];
for (const [intent, expected] of INTENTS) {
  const ranked = rankTools(intent, docs);
  const rank = ranked.indexOf(expected) + 1;
  if (rank === 1) hits += 1;
  rr += rank ? 1 / rank : 0;
  if (rank !== 1) misses.push({ intent, expected, chosen: ranked[0], rank });
  if (values.verbose) console.log(JSON.stringify({ intent, expected, rank, chosen: ranked.slice(0, 3) }));
}
const total = bytes(listing);
console.log(
  [
    '| tool | description | input schema | output schema | total |',
    '|---|---|---|---|---|',
    ...perTool.map((t) => `| ${t.name} | ${t.description} | ${t.input} | ${t.output} | ${t.total} |`),
  ].join('\n'),
);
console.log(
  JSON.stringify({
    summary: {
      tools: listing.tools.length,
      tools_list_bytes: total,
      tokens_estimate: Math.round(total / 4),
      intents: INTENTS.length,
      choice_top1: hits / INTENTS.length,
      choice_mrr: rr / INTENTS.length,
      misses,
    },
  }),
);
console.log(
  `\ntools/list: ${(total / 1024).toFixed(1)} KB (` +
    `${total} bytes, ~${Math.round(total / 4)} tokens) for ` +
    `${listing.tools.length} tools (target ≤ 16 KB)`,
);
console.log(
  `tool choice (lexical, name + description): top-1 ` +
    `${hits}/${INTENTS.length} (${((100 * hits) / INTENTS.length).toFixed(1)}%), ` +
    `MRR ${(rr / INTENTS.length).toFixed(3)}`,
);
