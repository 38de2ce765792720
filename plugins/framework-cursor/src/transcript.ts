/**
 * Cursor agent transcripts (`~/.cursor/projects/<project>/agent-transcripts/<session>/<session>.jsonl`,
 * subagents under `<session>/subagents/`): Anthropic-style messages, one per line —
 * `{role, message: {content: [text | thinking | tool_use {name, input}]}}` — and
 * `{type: "turn_ended", status}` markers. Cursor records neither tool results nor timestamps,
 * and its tool calls carry no id: an event's id is its line's byte offset in the file (the file
 * only grows, so the offset never changes) plus the block's index.
 */
import { basename, dirname, extname, sep } from 'node:path';
import {
  canonicalToolOf,
  countSkip,
  isJsonObject,
  parseJsonLinesChunk,
  type CanonicalTool,
  type CaptureParseContext,
  type CaptureParseResult,
  type SkipCounts,
  type ToolCallEvent,
} from '@agentgov/core';

export const FRAMEWORK = 'cursor';

type Json = Record<string, unknown>;

const QUIET_BLOCK_TYPES = new Set(['text', 'thinking', 'redacted_thinking', 'image']);
const QUIET_LINE_TYPES = new Set(['turn_ended']);

/** Cursor agent tool names → canonical kinds (core's table: `Shell`, `StrReplace`, `CallMcpTool`, …). */
export function cursorCanonicalTool(name: string): CanonicalTool {
  return canonicalToolOf(name);
}

/** The session a transcript belongs to (the directory under `agent-transcripts/`), and the transcript's own name. */
export function sessionOf(file: string): { session: string; transcript: string } {
  const transcript = basename(file, extname(file));
  const parts = dirname(file).split(sep);
  const at = parts.lastIndexOf('agent-transcripts');
  return { session: at >= 0 && parts[at + 1] ? (parts[at + 1] as string) : transcript, transcript };
}

export const eventId = (session: string, transcript: string, offset: number, block: number): string =>
  `${FRAMEWORK}:${session}:${transcript}@${offset}.${block}`;

interface TranscriptState {
  cwd?: string;
}

/** Parses a chunk of a Cursor agent transcript; `context.offset` places it in the file. */
export function parseTranscript(input: string, context: CaptureParseContext): CaptureParseResult {
  const { session, transcript } = sessionOf(context.file);
  const base = context.offset ?? 0;
  return parseJsonLinesChunk<TranscriptState>(input, context, (line, chunk, at) => {
    const { state, skipped, events } = chunk;
    const role = line['role'];
    if (role !== 'user' && role !== 'assistant') {
      if (typeof line['type'] !== 'string' || !QUIET_LINE_TYPES.has(line['type']))
        countSkip(skipped, 'unknown_line_type');
      return;
    }
    const message = line['message'];
    const content = isJsonObject(message) ? message['content'] : undefined;
    if (typeof content === 'string') return;
    if (!Array.isArray(content)) {
      countSkip(skipped, 'missing_message');
      return;
    }
    content.forEach((block: unknown, index) => {
      const type = isJsonObject(block) ? block['type'] : undefined;
      if (type === 'tool_use')
        readToolUse(block as Json, {
          session,
          id: eventId(session, transcript, base + at, index),
          state,
          skipped,
          events,
        });
      else if (typeof type !== 'string' || !QUIET_BLOCK_TYPES.has(type)) countSkip(skipped, 'unknown_block_type');
    });
  });
}

interface Sink {
  session: string;
  id: string;
  state: TranscriptState;
  skipped: SkipCounts;
  events: ToolCallEvent[];
}

function readToolUse(block: Json, sink: Sink): void {
  const name = typeof block['name'] === 'string' ? block['name'] : '';
  const input = block['input'];
  if (!name || !(input === undefined || isJsonObject(input))) {
    countSkip(sink.skipped, 'invalid_tool_use');
    return;
  }
  const args = (input as Json | undefined) ?? {};
  // The only working directory a transcript records is the one a Shell call names.
  if (typeof args['working_directory'] === 'string' && args['working_directory'].startsWith('/'))
    sink.state.cwd = args['working_directory'];
  sink.events.push({
    id: typeof block['id'] === 'string' && block['id'] ? `${FRAMEWORK}:${sink.session}:${block['id']}` : sink.id,
    framework: FRAMEWORK,
    session_id: sink.session,
    timestamp: new Date(0).toISOString(),
    cwd: sink.state.cwd ?? '',
    tool_name: name,
    canonical_tool: cursorCanonicalTool(name),
    arguments: args,
  });
}
