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

export function toolCallEvent(
  input: GateInput,
  options: { framework: string; defaultCwd: string; now?: Date; id?: string },
): ToolCallEvent {
  const id =
    options.id ??
    (input.tool_use_id
      ? `${options.framework}:${input.session_id}:${input.tool_use_id}`
      : `${options.framework}:${input.session_id}:gate-${randomUUID()}`);
  return {
    id,
    framework: options.framework,
    session_id: input.session_id,
    timestamp: options.now ? options.now.toISOString() : isoTimestamp(Date.now()),
    cwd: input.cwd ?? options.defaultCwd,
    tool_name: input.tool_name,
    canonical_tool: canonicalToolOf(input.tool_name),
    arguments: input.arguments,
  };
}

/**
 * `new Date(ms).toISOString()`, with the part up to the second formatted once per second: the
 * Score API stamps every request, and Date#toISOString was a measurable share of a request.
 */
let second = Number.NaN;
let secondPrefix = '';

export function isoTimestamp(ms: number): string {
  const whole = Math.floor(ms / 1000);
  if (whole !== second) {
    const iso = new Date(whole * 1000).toISOString();
    // Years outside 0000-9999 are written with a sign and six digits: no shared prefix then.
    if (iso.length !== 24) return new Date(ms).toISOString();
    second = whole;
    secondPrefix = iso.slice(0, 20);
  }
  return `${secondPrefix}${String(ms - whole * 1000).padStart(3, '0')}Z`;
}
