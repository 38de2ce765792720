/**
 * A live tool call (gate request or Score request) as a governance `ToolCallEvent`. The id of an
 * agentx-code hook call is the id its transcript line will get (framework + session + tool-use
 * id), so when `watch` later ingests the transcript the pipeline recognises the call instead of
 * recording it twice. A call without a tool-use id gets a fresh id: it is one gate decision.
 */
import { randomUUID } from 'node:crypto';
import type { CanonicalTool, ToolCallEvent } from '@agentgov/core';
import type { GateInput } from './input.js';

/**
 * Tool names → canonical kinds: agentx-code's names (the same table as its framework adapter)
 * and the canonical kinds themselves, so a Score API client may send `shell` or `Bash`.
 */
const CANONICAL: Readonly<Record<string, CanonicalTool>> = Object.freeze({
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

export function canonicalToolOf(toolName: string): CanonicalTool {
  if (toolName.startsWith('mcp__')) return 'mcp';
  return Object.hasOwn(CANONICAL, toolName) ? (CANONICAL[toolName] as CanonicalTool) : 'other';
}

export function toolCallEvent(input: GateInput, options: { framework: string; defaultCwd: string; now?: Date; id?: string }): ToolCallEvent {
  const id = options.id ?? (input.tool_use_id ? `${options.framework}:${input.session_id}:${input.tool_use_id}` : `${options.framework}:${input.session_id}:gate-${randomUUID()}`);
  return {
    id,
    framework: options.framework,
    session_id: input.session_id,
    timestamp: (options.now ?? new Date()).toISOString(),
    cwd: input.cwd ?? options.defaultCwd,
    tool_name: input.tool_name,
    canonical_tool: canonicalToolOf(input.tool_name),
    arguments: input.arguments,
  };
}
