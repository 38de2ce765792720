import { NOT_LOADED_IMPORT_KINDS } from '@agentgov/core';
import { DirectedGraph } from 'graphology';
import type { IndexStore } from '../index/store/index-store.js';
import { REF_FIELDS, RefField } from '../index/store/reference-blob.js';

/**
 * The file import graph: a node per indexed file (attributes `language`, `lines`), an edge per
 * importing → imported file pair with `weight` = number of import statements and `loadWeight` =
 * how many of them load the target with the importer (not type-only, deferred or dynamic).
 */
export function buildFileGraph(store: IndexStore): DirectedGraph {
  const graph = new DirectedGraph();
  for (const row of store.sqlite
    .prepare(`SELECT path, language, lines FROM files ORDER BY path`)
    .iterate() as Iterable<{ path: string; language: string; lines: number }>) {
    graph.addNode(row.path, { language: row.language, lines: row.lines });
  }
  const edges = store.sqlite.prepare(
    `SELECT from_path, to_path, count(*) AS weight, sum(kind NOT IN (` +
      `${notLoaded})) AS load_weight FROM imports WHERE to_path IS NOT NULL AND ` +
      `to_path != from_path
     GROUP BY from_path, to_path ORDER BY from_path, to_path`,
  );
  for (const row of edges.iterate() as Iterable<{
    from_path: string;
    to_path: string;
    weight: number;
    load_weight: number;
  }>) {
    if (graph.hasNode(row.from_path) && graph.hasNode(row.to_path))
      graph.addDirectedEdge(row.from_path, row.to_path, { weight: row.weight, loadWeight: row.load_weight });
  }
  return graph;
}

const notLoaded = [...NOT_LOADED_IMPORT_KINDS].map((kind) => `'${kind}'`).join(', ');

/**
 * What loading a module runs: the file graph without the edges whose imports are all type-only,
 * deferred or dynamic (`loadWeight` 0). An import cycle that is not a cycle here never runs as one.
 */
export function loadTimeGraph(fileGraph: DirectedGraph): DirectedGraph {
  const graph = fileGraph.emptyCopy();
  fileGraph.forEachEdge((_edge, attributes, source, target) => {
    const loadWeight = attributes['loadWeight'] as number | undefined;
    if (loadWeight === undefined || loadWeight > 0)
      graph.addDirectedEdge(source, target, { weight: loadWeight ?? attributes['weight'] });
  });
  return graph;
}

/**
 * The definition reference graph: a node per definition (attributes `path`, `name`, `kind`), an
 * edge from the definition containing a resolved reference to the referenced one, `weight` = count.
 */
export function buildDefGraph(store: IndexStore): DirectedGraph {
  const graph = new DirectedGraph();
  for (const row of store.sqlite
    .prepare(`SELECT def_uid, path, name, qualified_name, kind FROM definitions ORDER BY def_uid`)
    .iterate() as Iterable<{ def_uid: string; path: string; name: string; qualified_name: string; kind: string }>) {
    graph.addNode(row.def_uid, { path: row.path, name: row.name, qualifiedName: row.qualified_name, kind: row.kind });
  }
  // References name definitions by interned ids (`def_uids`); an edge per (from, to) pair, weighted by how many
  // references make it, added in uid order. A pair is one number, from × span + to, span above every id.
  const uids = store.uidsById();
  let span = 1;
  for (const id of uids.keys()) if (id >= span) span = id + 1;
  const weights = new Map<number, number>();
  for (const [, fields] of store.allReferenceFields()) {
    for (let at = 0; at < fields.length; at += REF_FIELDS) {
      const from = fields[at + RefField.From]!;
      const to = fields[at + RefField.To]!;
      if (from < 0 || to < 0 || from === to) continue;
      const key = from * span + to;
      weights.set(key, (weights.get(key) ?? 0) + 1);
    }
  }
  const edges = [...weights].map(([key, weight]) => ({
    from: uids.get(Math.floor(key / span))!,
    to: uids.get(key % span)!,
    weight,
  }));
  weights.clear();
  edges.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0));
  for (const { from, to, weight } of edges) {
    if (graph.hasNode(from) && graph.hasNode(to)) graph.addDirectedEdge(from, to, { weight });
  }
  return graph;
}
