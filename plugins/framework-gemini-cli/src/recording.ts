/**
 * Gemini CLI chat recordings (`<gemini dir>/tmp/<project>/chats/session-<time>-<id>.jsonl`).
 * The first line is the session's metadata (`sessionId`, `projectHash`, `startTime`), then one
 * line per message record; a record whose tool calls progressed is appended again under the same
 * message id, so a tool call id may appear several times (its `result` once it finished).
 * `{"$set": …}` lines update the metadata (a `messages` array there is a checkpoint of whole
 * records), `{"$rewindTo": id}` lines rewind the conversation. The legacy format — one JSON
 * object written whole, with a `messages` array — arrives as one line and is read the same way.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { canonicalToolOf, clipResultContent, isJsonObject, nonEmptyText, parseJsonLinesChunk } from '@agentgov/core';
import type { CanonicalTool, CaptureChunk, CaptureParser } from '@agentgov/core';

export const FRAMEWORK = 'gemini-cli';

type Json = Record<string, unknown>;

const MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);
/** Tool call states after which the call has a result. */
const FINISHED = new Set(['success', 'error', 'cancelled']);

/**
 * Gemini CLI tool names → canonical kinds (core's table, `mcp_<server>_<tool>` included); older MCP tools are
 * `<server>__<tool>`.
 */
export function geminiCanonicalTool(name: string): CanonicalTool {
  const kind = canonicalToolOf(name);
  return kind === 'other' && name.includes('__') ? 'mcp' : kind;
}

export const eventId = (sessionId: string, toolCallId: string): string => `${FRAMEWORK}:${sessionId}:${toolCallId}`;

const text = nonEmptyText;

interface RecordingState {
  sessionId?: string;
  cwd?: string;
  /** Tool call events of earlier chunks: a later sighting only completes them. */
  seen?: Set<string>;
}

/**
 * The project a recording belongs to: Gemini CLI keeps the project's path in `.project_root` of
 * the project's temp directory, the parent of `chats/` (subagent recordings sit one level deeper).
 */
export function projectRootOf(file: string): string | undefined {
  for (let dir = dirname(file), i = 0; i < 3; i += 1, dir = dirname(dir)) {
    if (basename(dir) !== 'chats') continue;
    const marker = join(dirname(dir), '.project_root');
    try {
      return existsSync(marker) ? readFileSync(marker, 'utf8').trim() || undefined : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Bytes of a recording's head searched for its metadata line. */
const HEAD_BYTES = 64 * 1024;

/**
 * The session id of a recording's first line (its metadata), read from the file: a read that
 * resumes mid-file (`watch` from a stored offset) carries no state from the read that saw it, and
 * the file name holds only the first 8 characters of the id.
 */
export function recordedSessionId(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(HEAD_BYTES);
    const read = readSync(fd, head, 0, HEAD_BYTES, 0);
    const text = head.subarray(0, read).toString('utf8');
    const newline = text.indexOf('\n');
    if (newline === -1) return undefined;
    const first: unknown = JSON.parse(text.slice(0, newline));
    return isJsonObject(first) && typeof first['sessionId'] === 'string' && first['sessionId'] !== ''
      ? first['sessionId']
      : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

type Chunk = CaptureChunk<RecordingState>;

/** Parses a chunk of a Gemini CLI chat recording; see FrameworkAdapter.parse. */
export const parseRecording: CaptureParser = (input, context) => {
  const state = (context.state ?? {}) as RecordingState;
  if (state.cwd === undefined) state.cwd = projectRootOf(context.file) ?? '';
  if (state.sessionId === undefined && (context.offset ?? 0) > 0) state.sessionId = recordedSessionId(context.file);
  return parseJsonLinesChunk(input, context, readLine, {
    state,
    finish(chunk) {
      state.seen ??= new Set();
      for (const id of chunk.byId.keys()) state.seen.add(id);
    },
  });
};

function readMetadata(metadata: Json, chunk: Chunk): void {
  chunk.state.sessionId = text(metadata['sessionId']) ?? chunk.state.sessionId;
  const directories = metadata['directories'];
  if (!chunk.state.cwd && Array.isArray(directories) && typeof directories[0] === 'string')
    chunk.state.cwd = directories[0];
  if (Array.isArray(metadata['messages'])) for (const message of metadata['messages']) readMessageIn(message, chunk);
}

function readLine(line: Json, chunk: Chunk): void {
  if (typeof line['$rewindTo'] === 'string') return;
  if (isJsonObject(line['$set'])) readMetadata(line['$set'], chunk);
  else if (typeof line['id'] === 'string') readMessage(line, chunk);
  else if (typeof line['sessionId'] === 'string' && typeof line['projectHash'] === 'string') readMetadata(line, chunk);
  else chunk.skip('unknown_record');
}

function readMessageIn(message: unknown, chunk: Chunk): void {
  if (isJsonObject(message) && typeof message['id'] === 'string') readMessage(message, chunk);
  else chunk.skip('unknown_record');
}

function readMessage(message: Json, chunk: Chunk): void {
  if (typeof message['type'] !== 'string' || !MESSAGE_TYPES.has(message['type'])) {
    chunk.skip('unknown_message_type');
    return;
  }
  const calls = message['toolCalls'];
  if (calls === undefined) return;
  if (!Array.isArray(calls)) {
    chunk.skip('invalid_tool_call');
    return;
  }
  const timestamp = text(message['timestamp']) ?? new Date(0).toISOString();
  for (const call of calls) readToolCall(call, timestamp, chunk);
}

/** The text a finished call returned: function responses' `output`/`error`, text parts, or the JSON. */
function resultText(result: unknown): string {
  const parts = Array.isArray(result) ? result : result === undefined || result === null ? [] : [result];
  return parts
    .map((part: unknown) => {
      if (typeof part === 'string') return part;
      if (!isJsonObject(part)) return '';
      if (typeof part['text'] === 'string') return part['text'];
      const response = isJsonObject(part['functionResponse']) ? part['functionResponse']['response'] : undefined;
      if (isJsonObject(response)) return String(response['output'] ?? response['error'] ?? JSON.stringify(response));
      return JSON.stringify(part);
    })
    .join('\n');
}

function readToolCall(call: unknown, messageTimestamp: string, chunk: Chunk): void {
  const id = isJsonObject(call) ? text(call['id']) : undefined;
  const name = isJsonObject(call) ? text(call['name']) : undefined;
  if (!isJsonObject(call) || !id || !name || !(call['args'] === undefined || isJsonObject(call['args']))) {
    chunk.skip('invalid_tool_call');
    return;
  }
  const session = chunk.state.sessionId ?? basename(chunk.file, extname(chunk.file));
  const timestamp = text(call['timestamp']) ?? messageTimestamp;
  const status = text(call['status']);
  const result =
    status && FINISHED.has(status)
      ? {
          content: clipResultContent(
            status === 'cancelled' && call['result'] == null ? 'cancelled' : resultText(call['result']),
          ),
          is_error: status !== 'success',
          timestamp,
        }
      : undefined;
  const eventKey = eventId(session, id);
  if (chunk.byId.has(eventKey) || chunk.state.seen?.has(eventKey)) {
    // The same call re-recorded as it progressed (in this chunk or an earlier one): keep the first sighting, take the
    // finished result.
    if (result) chunk.complete(eventKey, result);
    return;
  }
  chunk.addCall({
    id: eventKey,
    framework: FRAMEWORK,
    session_id: session,
    timestamp,
    cwd: chunk.state.cwd ?? '',
    tool_name: name,
    canonical_tool: geminiCanonicalTool(name),
    arguments: (call['args'] as Json | undefined) ?? {},
    ...(result ? { result } : {}),
  });
}
