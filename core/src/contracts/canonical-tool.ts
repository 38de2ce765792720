import type { CanonicalTool } from './events.js';

/**
 * Tool names of Claude-Code-compatible agents (agentx-code) → the canonical kinds the risk engine
 * judges. One table for the framework adapter (transcripts) and the gate (live hook calls), so a
 * call is classified the same way whichever path it takes. The canonical kinds map to themselves,
 * so a Score API client may send `shell` as well as `Bash`. This module imports nothing at run
 * time: the gate's fast path loads it.
 */
export const CANONICAL_TOOL_NAMES: Readonly<Record<string, CanonicalTool>> = Object.freeze({
  Bash: 'shell',
  Read: 'read',
  Write: 'write',
  Edit: 'edit',
  MultiEdit: 'edit',
  NotebookEdit: 'edit',
  Grep: 'search',
  Glob: 'search',
  LS: 'search',
  WebFetch: 'fetch',
  WebSearch: 'fetch',
  shell: 'shell',
  bash: 'shell',
  read: 'read',
  write: 'write',
  edit: 'edit',
  search: 'search',
  fetch: 'fetch',
  mcp: 'mcp',
});

/** The canonical kind of a tool name: MCP tools (`mcp__server__tool`) are `mcp`, unknown names `other`. */
export function canonicalToolOf(toolName: string): CanonicalTool {
  if (toolName.startsWith('mcp__')) return 'mcp';
  return Object.hasOwn(CANONICAL_TOOL_NAMES, toolName) ? (CANONICAL_TOOL_NAMES[toolName] as CanonicalTool) : 'other';
}
