import type { DirectedGraph } from 'graphology';
import { z } from 'zod';
import type { RepositoryIndex } from '../index/repository-index.js';

export const levelParameter = z
  .enum(['file', 'def'])
  .default('file')
  .describe('`file` (import graph) or `def` (reference graph). Nodes are files at `file`, definitions at `def`');

export type GraphLevel = z.infer<typeof levelParameter>;

/** A node as tools show it: a file path, or a definition with its name and location. */
export type GraphMember = string | { def_uid: string; qualified_name: string; kind: string; path: string };

/** The output-schema form of a GraphMember. */
export const graphMemberSchema = z.union([
  z.string(),
  z.object({ def_uid: z.string(), qualified_name: z.string(), kind: z.string(), path: z.string() }).strict(),
]);

export function graphOf(index: RepositoryIndex, level: GraphLevel): DirectedGraph {
  return level === 'file' ? index.fileGraph() : index.defGraph();
}

export function memberOf(graph: DirectedGraph, level: GraphLevel, node: string): GraphMember {
  if (level === 'file') return node;
  const attributes = graph.getNodeAttributes(node);
  return {
    def_uid: node,
    qualified_name: String(attributes['qualifiedName'] ?? attributes['name']),
    kind: String(attributes['kind']),
    path: String(attributes['path']),
  };
}

export function memberLabel(member: GraphMember): string {
  return typeof member === 'string' ? member : `${member.qualified_name} (${member.path})`;
}

export function memberPath(member: GraphMember): string {
  return typeof member === 'string' ? member : member.path;
}

/** A stable order of members: by path, then (level def) by line-independent name and uid. */
export function compareMembers(a: GraphMember, b: GraphMember): number {
  if (typeof a === 'string' || typeof b === 'string') return memberPath(a).localeCompare(memberPath(b));
  return (
    a.path.localeCompare(b.path) ||
    a.qualified_name.localeCompare(b.qualified_name) ||
    a.def_uid.localeCompare(b.def_uid)
  );
}
