#!/usr/bin/env node
// Latency of recon_scout, graph_cycles and graph_communities through a real MCP session (in-process
// transport) on real repositories, after the index is built (a cold build is not part of the timing).
// usage: node bench/scout/run.mjs [name=dir ...]   (default: zod, vue, sympy under bench/.work/;
// fetch them with the search tool's `fetch`, then `git -C <mirror> archive <sha> | tar -x -C bench/.work/<name>`)
// Prints one JSON object per repository and tool call, then a summary table and the command.
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRepos } from '../repos.mjs';
import { createLogger, createPluginHost, loadConfig } from '@agentgov/core';
import { LANGUAGE_PACKS as PYTHON } from '@agentgov/plugin-language-python';
import { LANGUAGE_PACKS as ECMASCRIPT } from '@agentgov/plugin-language-typescript';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openRepositoryIndex, ToolServer } from '../../server/dist/src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const repos = benchRepos().filter((r) => existsSync(r.dir));

const logger = createLogger({ stream: null });
const loaded = loadConfig({ cwd: here });
const host = await createPluginHost({ loaded, bundled: [], resolveFrom: [], host: 'server', logger });
const CALLS = [
  ['recon_scout', {}],
  ['recon_scout', { truncate: false }],
  ['graph_cycles', { level: 'file' }],
  ['graph_cycles', { level: 'def' }],
  ['graph_communities', { level: 'file' }],
  ['graph_communities', { level: 'def' }],
];
const RUNS = 3;
const rows = [];
for (const { name, dir } of repos) {
  const opened = performance.now();
  const index = await openRepositoryIndex({ root: dir, languages: [...ECMASCRIPT, ...PYTHON], logger });
  await index.ready;
  const indexMs = Math.round(performance.now() - opened);
  const toolServer = new ToolServer({ repoRoot: dir, index, host, config: loaded.config, logger, devMode: false });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await toolServer.createSession().connect(serverSide);
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(clientSide);
  const calls = [...CALLS];
  const coldStart = performance.now();
  const first = await client.callTool({ name: 'recon_scout', arguments: {} }, undefined, { timeout: 600_000 });
  const coldMs = Math.round(performance.now() - coldStart);
  const cold = {
    repo: name,
    files: index.stats().files,
    definitions: index.stats().definitions,
    index_ready_ms: indexMs,
    tool: 'recon_scout',
    args: '{} first call (graphs built, PageRank computed)',
    first_ms: coldMs,
    median_ms: coldMs,
    text_chars: first.content[0].text.length,
    json_chars: JSON.stringify(first.structuredContent).length,
    detail: '',
  };
  rows.push(cold);
  console.log(JSON.stringify(cold));
  const zoom = first.structuredContent?.zoom_targets?.[0]?.path;
  if (zoom) calls.push(['recon_scout', { scope: zoom }]);
  for (const [tool, toolArgs] of calls) {
    const times = [];
    let result;
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      result = await client.callTool({ name: tool, arguments: toolArgs }, undefined, { timeout: 600_000 });
      times.push(performance.now() - start);
    }
    if (result.isError) throw new Error(`${tool} failed: ${result.content[0].text}`);
    const firstMs = Math.round(times[0]);
    times.sort((a, b) => a - b);
    const s = result.structuredContent;
    const row = {
      repo: name,
      files: index.stats().files,
      definitions: index.stats().definitions,
      index_ready_ms: indexMs,
      tool,
      args: JSON.stringify(toolArgs),
      first_ms: firstMs,
      median_ms: Math.round(times[Math.floor(RUNS / 2)]),
      min_ms: Math.round(times[0]),
      text_chars: result.content[0].text.length,
      json_chars: JSON.stringify(s).length,
      detail:
        tool === 'recon_scout'
          ? `${s.cycles.total} cycles, ${s.communities.total} communities, ` +
            `${s.zoom_targets.length} zoom targets` +
            `${s.warning ? ', warning' : ''}`
          : tool === 'graph_cycles'
            ? `${s.total} cycles, ${s.graph.nodes} nodes`
            : `${s.graph.communities} communities, Q=${s.graph.modularity.toFixed(3)}`,
    };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  await client.close();
  await toolServer.close();
  await index.close();
}
console.log(
  '\n| repo | files | defs | tool | args | first ms | median ms | text chars ' +
    '| detail |\n|---|---|---|---|---|---|---|---|---|',
);
for (const r of rows)
  console.log(
    `| ${r.repo} | ${r.files} | ${r.definitions} | ` +
      `${r.tool} | ${r.args} | ${r.first_ms} | ` +
      `${r.median_ms} | ${r.text_chars} | ${r.detail} |`,
  );
console.log(`\nreproduce: node bench/scout/run.mjs ${process.argv.slice(2).join(' ')}`);
