/**
 * Claude Code's project transcripts (`<config dir>/projects/<project>/<session>.jsonl`): one JSON
 * object per line; `assistant` lines carry `tool_use` content blocks, `user` lines the matching
 * `tool_result` blocks. Every line carries `sessionId`, `cwd` and `timestamp`.
 */
import { basename, extname } from 'node:path';
import { canonicalToolOf, clipResultContent, countSkip, isJsonObject, walkJsonLines, type CaptureCompletion, type CaptureParseContext, type CaptureParseResult, type SkipCounts, type ToolCallEvent, type ToolCallResult } from '@agentgov/core';

export const FRAMEWORK = 'claude-code';

/** Line types that are part of the format but carry no tool calls. */
const QUIET_LINE_TYPES = new Set(['system', 'summary', 'file-history-snapshot', 'queue-operation', 'progress']);
/** Content blocks that are part of the format but carry no tool calls. */
const QUIET_BLOCK_TYPES = new Set(['text', 'thinking', 'redacted_thinking', 'image', 'document']);

type Json = Record<string, unknown>;

interface TranscriptState {
  sessionId?: string;
  cwd?: string;
  timestamp?: string;
}

/** The stable event id: framework + session + tool_use id. */
export function eventId(sessionId: string, toolUseId: string): string {
  return `${FRAMEWORK}:${sessionId}:${toolUseId}`;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content);
  return content.map((b) => (isJsonObject(b) && typeof b['text'] === 'string' ? b['text'] : isJsonObject(b) ? `[${String(b['type'])}]` : '')).join('\n');
}

interface Chunk {
  state: TranscriptState;
  fallbackSession: string;
  skipped: SkipCounts;
  events: ToolCallEvent[];
  byId: Map<string, ToolCallEvent>;
  completions: CaptureCompletion[];
}

/** Parses a chunk of a Claude Code transcript; see FrameworkAdapter.parse. */
export function parseTranscript(input: string, context: CaptureParseContext): CaptureParseResult {
  const chunk: Chunk = {
    state: (context.state ?? {}) as TranscriptState,
    fallbackSession: basename(context.file, extname(context.file)),
    skipped: {},
    events: [],
    byId: new Map(),
    completions: [],
  };
  const walk = walkJsonLines(input, chunk.skipped, (line) => readLine(line, chunk));
  context.state = chunk.state as Record<string, unknown>;
  return { events: chunk.events, completions: chunk.completions, skipped: chunk.skipped, ...walk };
}

function readLine(line: Json, chunk: Chunk): void {
  const { state, skipped } = chunk;
  state.sessionId = text(line['sessionId']) ?? state.sessionId;
  state.cwd = text(line['cwd']) ?? state.cwd;
  state.timestamp = text(line['timestamp']) ?? state.timestamp;
  const type = line['type'];
  if (type !== 'user' && type !== 'assistant') {
    if (typeof type !== 'string' || !QUIET_LINE_TYPES.has(type)) countSkip(skipped, 'unknown_line_type');
    return;
  }
  const message = line['message'];
  const content = isJsonObject(message) ? message['content'] : undefined;
  if (typeof content === 'string') return; // a plain text message
  if (!Array.isArray(content)) {
    countSkip(skipped, 'missing_message');
    return;
  }
  const session = state.sessionId ?? chunk.fallbackSession;
  const timestamp = state.timestamp ?? new Date(0).toISOString();
  for (const block of content) {
    const blockType = isJsonObject(block) ? block['type'] : undefined;
    if (blockType === 'tool_use') readToolUse(block as Json, session, timestamp, chunk);
    else if (blockType === 'tool_result') readToolResult(block as Json, session, timestamp, chunk);
    else if (typeof blockType !== 'string' || !QUIET_BLOCK_TYPES.has(blockType)) countSkip(skipped, 'unknown_block_type');
  }
}

function readToolUse(block: Json, session: string, timestamp: string, chunk: Chunk): void {
  const id = text(block['id']);
  const name = text(block['name']);
  const input = block['input'];
  if (!id || !name || !(input === undefined || isJsonObject(input))) {
    countSkip(chunk.skipped, 'invalid_tool_use');
    return;
  }
  const event: ToolCallEvent = {
    id: eventId(session, id),
    framework: FRAMEWORK,
    session_id: session,
    timestamp,
    cwd: chunk.state.cwd ?? '',
    tool_name: name,
    canonical_tool: canonicalToolOf(name),
    arguments: input ?? {},
  };
  if (chunk.byId.has(event.id)) {
    countSkip(chunk.skipped, 'repeated_tool_use');
    return;
  }
  chunk.byId.set(event.id, event);
  chunk.events.push(event);
}

function readToolResult(block: Json, session: string, timestamp: string, chunk: Chunk): void {
  const toolUseId = text(block['tool_use_id']);
  if (!toolUseId) {
    countSkip(chunk.skipped, 'invalid_tool_result');
    return;
  }
  const id = eventId(session, toolUseId);
  const result: ToolCallResult = { content: clipResultContent(resultText(block['content'])), is_error: block['is_error'] === true, timestamp };
  const call = chunk.byId.get(id);
  if (call) call.result = result;
  else chunk.completions.push({ event_id: id, result });
}
