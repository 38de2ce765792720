/**
 * One tool call, one event. Some agents give a hook call no id of its own (Gemini CLI's BeforeTool,
 * Copilot CLI's preToolUse): the gate's event and the transcript's record of the same call then
 * carry different ids. They are recognised by their correlation key — framework, session, tool and
 * canonical arguments — and their times: a gate event pairs with the nearest unpaired capture
 * event of the same key within CORRELATION_WINDOW_MS, and the reverse, whichever is recorded first.
 * Each event pairs once, so the same command run twice stays two events.
 */
import { createHash } from 'node:crypto';
import type { ToolCallEvent } from '../contracts/events.js';

/** How far apart the hook call and the transcript record of one call may be (an approval prompt waits in between). */
export const CORRELATION_WINDOW_MS = 15 * 60 * 1000;

/** JSON with object keys sorted at every level: the same arguments always give the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function correlationKeyOf(
  event: Pick<ToolCallEvent, 'framework' | 'session_id' | 'tool_name' | 'arguments'>,
): string {
  const text = [event.framework, event.session_id, event.tool_name, canonicalJson(event.arguments)].join('\u0000');
  return createHash('sha256').update(text).digest('hex');
}

/** The two sides a call is seen from: the live gate, or an agent's capture file. */
export const sideOf = (source: string): 'gate' | 'capture' => (source === 'gate' ? 'gate' : 'capture');
