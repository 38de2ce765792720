import { basename, extname } from 'node:path';
import { canonicalToolOf, type CaptureCompletion, type CaptureParseContext, type CaptureParseResult, type SkipCounts, type ToolCallEvent, type ToolCallResult } from '@agentgov/core';

export const FRAMEWORK = 'agentx-code';

/** Line types that carry no tool calls but are part of the format (not "unknown"). */
const QUIET_LINE_TYPES = new Set(['system', 'summary', 'file-history-snapshot']);
/** Content block types that carry no tool calls but are part of the format. */
const QUIET_BLOCK_TYPES = new Set(['text', 'thinking', 'redacted_thinking', 'image', 'document']);
/** Results are stored for the record, not the whole tool output. */
export const MAX_RESULT_CHARS = 2000;

type Json = Record<string, unknown>;

/** State carried between chunks of one file: the last session, cwd and timestamp seen. */
interface TranscriptState {
  sessionId?: string;
  cwd?: string;
  timestamp?: string;
}

/** The stable event id: framework + session + tool-call id. */
export function eventId(sessionId: string, toolUseId: string): string {
  return `${FRAMEWORK}:${sessionId}:${toolUseId}`;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function count(skipped: SkipCounts, reason: string): void {
  skipped[reason] = (skipped[reason] ?? 0) + 1;
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content);
  return content.map((b) => (isObject(b) && typeof b['text'] === 'string' ? b['text'] : isObject(b) ? `[${String(b['type'])}]` : '')).join('\n');
}

function toResult(block: Json, timestamp: string | undefined): ToolCallResult {
  let content = resultText(block['content']);
  if (content.length > MAX_RESULT_CHARS) content = `${content.slice(0, MAX_RESULT_CHARS)}…[${content.length - MAX_RESULT_CHARS} more chars]`;
  return { content, is_error: block['is_error'] === true, ...(timestamp ? { timestamp } : {}) };
}

/**
 * Parses a chunk of an agentx-code JSONL transcript (Claude Code format) that starts at a line
 * boundary. `tool_use` blocks are calls; `tool_result` blocks complete them. Unknown line types
 * and blocks, malformed lines and incomplete tool calls are skipped and counted; an unterminated
 * last line that is not yet a complete JSON object is left unconsumed for a later read.
 */
export function parseTranscript(text: string, context: CaptureParseContext): CaptureParseResult {
  const state = (context.state ?? {}) as TranscriptState;
  const fallbackSession = basename(context.file, extname(context.file));
  const skipped: SkipCounts = {};
  const events: ToolCallEvent[] = [];
  const byId = new Map<string, ToolCallEvent>();
  const completions: CaptureCompletion[] = [];
  let consumed = 0;
  let lines = 0;
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const raw = newline === -1 ? text.slice(start) : text.slice(start, newline);
    let line: unknown;
    try {
      line = raw.trim() === '' ? undefined : JSON.parse(raw);
    } catch {
      line = SyntaxError;
    }
    if (newline === -1 && !isObject(line)) break; // truncated (or still being written): leave it for later
    lines += 1;
    const end = newline === -1 ? text.length : newline + 1;
    consumed += Buffer.byteLength(text.slice(start, end));
    start = end;
    if (line === undefined) continue;
    if (!isObject(line)) {
      count(skipped, 'malformed_json');
      continue;
    }
    readLine(line, { state, fallbackSession, skipped, events, byId, completions });
  }
  context.state = state as Record<string, unknown>;
  return { events, completions, skipped, lines, consumedBytes: consumed };
}

interface LineSink {
  state: TranscriptState;
  fallbackSession: string;
  skipped: SkipCounts;
  events: ToolCallEvent[];
  byId: Map<string, ToolCallEvent>;
  completions: CaptureCompletion[];
}

function readLine(line: Json, sink: LineSink): void {
  const { state, skipped } = sink;
  if (typeof line['sessionId'] === 'string' && line['sessionId']) state.sessionId = line['sessionId'];
  if (typeof line['cwd'] === 'string' && line['cwd']) state.cwd = line['cwd'];
  if (typeof line['timestamp'] === 'string' && line['timestamp']) state.timestamp = line['timestamp'];
  const type = line['type'];
  if (type !== 'user' && type !== 'assistant') {
    if (typeof type !== 'string' || !QUIET_LINE_TYPES.has(type)) count(skipped, 'unknown_line_type');
    return;
  }
  const message = line['message'];
  if (!isObject(message)) {
    count(skipped, 'missing_message');
    return;
  }
  const content = message['content'];
  if (typeof content === 'string') return; // a plain text message
  if (!Array.isArray(content)) {
    count(skipped, 'missing_message');
    return;
  }
  const session = (typeof line['sessionId'] === 'string' && line['sessionId']) || state.sessionId || sink.fallbackSession;
  const timestamp = (typeof line['timestamp'] === 'string' && line['timestamp']) || state.timestamp || new Date(0).toISOString();
  for (const block of content) {
    if (!isObject(block) || typeof block['type'] !== 'string') count(skipped, 'unknown_block_type');
    else if (block['type'] === 'tool_use') readToolUse(block, session, timestamp, sink);
    else if (block['type'] === 'tool_result') readToolResult(block, session, timestamp, sink);
    else if (!QUIET_BLOCK_TYPES.has(block['type'])) count(skipped, 'unknown_block_type');
  }
}

function readToolUse(block: Json, session: string, timestamp: string, sink: LineSink): void {
  const { id, name, input } = block;
  if (typeof id !== 'string' || !id || typeof name !== 'string' || !name || !(input === undefined || isObject(input))) {
    count(sink.skipped, 'invalid_tool_use');
    return;
  }
  const event: ToolCallEvent = {
    id: eventId(session, id),
    framework: FRAMEWORK,
    session_id: session,
    timestamp,
    cwd: sink.state.cwd ?? '',
    tool_name: name,
    canonical_tool: canonicalToolOf(name),
    arguments: input ?? {},
  };
  if (sink.byId.has(event.id)) {
    count(sink.skipped, 'repeated_tool_use');
    return;
  }
  sink.byId.set(event.id, event);
  sink.events.push(event);
}

function readToolResult(block: Json, session: string, timestamp: string, sink: LineSink): void {
  const toolUseId = block['tool_use_id'];
  if (typeof toolUseId !== 'string' || !toolUseId) {
    count(sink.skipped, 'invalid_tool_result');
    return;
  }
  const id = eventId(session, toolUseId);
  const result = toResult(block, timestamp);
  const call = sink.byId.get(id);
  if (call) call.result = result;
  else sink.completions.push({ event_id: id, result });
}
