/**
 * A live tool call (gate request or Score request) as a governance `ToolCallEvent`. The id of an
 * agentx-code hook call is the id its transcript line will get (framework + session + tool-use
 * id), so when `watch` later ingests the transcript the pipeline recognises the call instead of
 * recording it twice. A call without a tool-use id gets a fresh id: it is one gate decision.
 */
import { randomUUID } from 'node:crypto';
import type { ToolCallEvent } from '@agentgov/core';
import { canonicalToolOf } from '@agentgov/core/canonical-tool';
import type { GateInput } from './input.js';

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
