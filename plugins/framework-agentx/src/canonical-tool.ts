import type { CanonicalTool } from '@agentgov/core';

/** agentx-code (Claude Code) tool names → the canonical tool kinds the risk engine judges. */
export const CANONICAL_TOOLS: Readonly<Record<string, CanonicalTool>> = Object.freeze({
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
});

export function canonicalTool(toolName: string): CanonicalTool {
  if (toolName.startsWith('mcp__')) return 'mcp';
  return Object.hasOwn(CANONICAL_TOOLS, toolName) ? (CANONICAL_TOOLS[toolName] as CanonicalTool) : 'other';
}
