/**
 * The Claude Code transcript format (`<config dir>/projects/<project>/<session>.jsonl`), which
 * agentx-code and other Claude-Code-compatible agents also write: one JSON object per line;
 * `assistant` lines carry `tool_use` content blocks, `user` lines the matching `tool_result`
 * blocks, and lines carry `sessionId`, `cwd` and `timestamp`. A framework plugin names itself and
 * gets a parser; the format is read in one place.
 */
import { basename, extname } from 'node:path';
import { canonicalToolOf } from '../contracts/canonical-tool.js';
import type { CaptureParseContext, CaptureParseResult, ToolCallEvent, ToolCallResult } from '../contracts/index.js';
import {
  clipResultContent,
  countSkip,
  isJsonObject,
  nonEmptyText,
  parseJsonLinesChunk,
  type CaptureChunk,
} from './json-lines.js';

type Json = Record<string, unknown>;

/** Line types that are part of the format but carry no tool calls (not "unknown"). */
const QUIET_LINE_TYPES = new Set(['system', 'summary', 'file-history-snapshot', 'queue-operation', 'progress']);
/** Content blocks that are part of the format but carry no tool calls. */
const QUIET_BLOCK_TYPES = new Set(['text', 'thinking', 'redacted_thinking', 'image', 'document']);

/** State carried between chunks of one file: the last session, cwd and timestamp seen. */
interface TranscriptState {
  sessionId?: string;
  cwd?: string;
  timestamp?: string;
}

type Chunk = CaptureChunk<TranscriptState> & { framework: string; fallbackSession: string };

/** The stable event id of a transcript tool call: framework + session + tool_use id. */
export function transcriptEventId(framework: string, sessionId: string, toolUseId: string): string {
  return `${framework}:${sessionId}:${toolUseId}`;
}

/**
 * A parser for `framework`'s transcripts (see FrameworkAdapter.parse): parses a chunk that starts
 * at a line boundary. `tool_use` blocks are calls; `tool_result` blocks complete them, in this
 * chunk or a later one. Unknown line and block types, malformed lines and incomplete tool calls
 * are skipped and counted; an unterminated last line that is not yet a whole JSON object is left
 * unconsumed for a later read.
 */
export function claudeTranscriptParser(
  framework: string,
): (input: string, context: CaptureParseContext) => CaptureParseResult {
  return (input, context) =>
    parseJsonLinesChunk(input, context, (line, chunk: Chunk) => readLine(line, chunk), {
      extra: { framework, fallbackSession: basename(context.file, extname(context.file)) },
    });
}

const text = nonEmptyText;

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content);
  return content
    .map((b) =>
      isJsonObject(b) && typeof b['text'] === 'string' ? b['text'] : isJsonObject(b) ? `[${String(b['type'])}]` : '',
    )
    .join('\n');
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
    else if (typeof blockType !== 'string' || !QUIET_BLOCK_TYPES.has(blockType))
      countSkip(skipped, 'unknown_block_type');
  }
}

function readToolUse(block: Json, session: string, timestamp: string, chunk: Chunk): void {
  const id = text(block['id']);
  const name = text(block['name']);
  const input = block['input'];
  if (!id || !name || !(input === undefined || isJsonObject(input))) {
    chunk.skip('invalid_tool_use');
    return;
  }
  const event: ToolCallEvent = {
    id: transcriptEventId(chunk.framework, session, id),
    framework: chunk.framework,
    session_id: session,
    timestamp,
    cwd: chunk.state.cwd ?? '',
    tool_name: name,
    canonical_tool: canonicalToolOf(name),
    arguments: input ?? {},
  };
  chunk.addCall(event, 'repeated_tool_use');
}

function readToolResult(block: Json, session: string, timestamp: string, chunk: Chunk): void {
  const toolUseId = text(block['tool_use_id']);
  if (!toolUseId) {
    chunk.skip('invalid_tool_result');
    return;
  }
  const id = transcriptEventId(chunk.framework, session, toolUseId);
  const result: ToolCallResult = {
    content: clipResultContent(resultText(block['content'])),
    is_error: block['is_error'] === true,
    timestamp,
  };
  chunk.complete(id, result);
}
