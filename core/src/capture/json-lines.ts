import type { CaptureCompletion, CaptureParseContext, CaptureParseResult, SkipCounts } from '../contracts/framework.js';
import type { ToolCallEvent, ToolCallResult } from '../contracts/events.js';

type Json = Record<string, unknown>;

/** A JSON value that is an object (not an array, not null). */
export const isJsonObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Counts one skipped line or block under `reason`. */
export function countSkip(skipped: SkipCounts, reason: string): void {
  skipped[reason] = (skipped[reason] ?? 0) + 1;
}

/** Tool results are stored for the record, not the whole tool output. */
export const MAX_RESULT_CHARS = 2000;

/** `content` cut to MAX_RESULT_CHARS, saying how much was left out. */
export function clipResultContent(content: string): string {
  return content.length > MAX_RESULT_CHARS
    ? `${content.slice(0, MAX_RESULT_CHARS)}…[${content.length - MAX_RESULT_CHARS} more chars]`
    : content;
}

export interface JsonLinesWalk {
  /** Lines read (complete lines, blank ones included). */
  lines: number;
  /** UTF-8 bytes consumed; an unterminated last line that is not yet a whole JSON object is not. */
  consumedBytes: number;
}

/**
 * Walks the complete lines of a JSON-lines chunk that starts at a line boundary, handing every
 * line that holds a JSON object to `onRecord` with its byte offset in the chunk. A line that is
 * not JSON is counted as `malformed_json`, a JSON value that is not an object as
 * `not_an_object`; blank lines are skipped silently. An unterminated last line is consumed only
 * when it already parses as an object (a writer may still be appending to it).
 */
export function walkJsonLines(
  text: string,
  skipped: SkipCounts,
  onRecord: (record: Json, byteOffset: number) => void,
): JsonLinesWalk {
  let consumed = 0;
  let lines = 0;
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const raw = newline === -1 ? text.slice(start) : text.slice(start, newline);
    let value: unknown;
    let malformed = false;
    if (raw.trim() !== '') {
      try {
        value = JSON.parse(raw);
      } catch {
        malformed = true;
      }
    }
    if (newline === -1 && !isJsonObject(value)) break;
    const end = newline === -1 ? text.length : newline + 1;
    const at = consumed;
    lines += 1;
    consumed += Buffer.byteLength(text.slice(start, end));
    start = end;
    if (malformed) countSkip(skipped, 'malformed_json');
    else if (isJsonObject(value)) onRecord(value, at);
    else if (value !== undefined) countSkip(skipped, 'not_an_object');
  }
  return { lines, consumedBytes: consumed };
}

/** A non-empty string, else undefined: how capture formats read their optional text fields. */
export const nonEmptyText = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** What a JSON-lines capture parser fills while it reads one chunk of a file. */
export interface CaptureChunk<State extends object> {
  /** State carried between chunks of this file (`context.state`): kept for the next chunk. */
  state: State;
  /** The capture file. */
  file: string;
  skipped: SkipCounts;
  /** The calls found, in file order. */
  events: ToolCallEvent[];
  /** This chunk's calls by id, so that a result later in the chunk completes its call. */
  byId: Map<string, ToolCallEvent>;
  /** Results whose call was in an earlier chunk. */
  completions: CaptureCompletion[];
  /**
   * Adds a call, once per id: a call whose id the chunk already holds is counted under `repeated` (default
   * `repeated_tool_call`) and dropped. Answers whether it was added.
   */
  addCall(event: ToolCallEvent, repeated?: string): boolean;
  /** A call's result: set on the call when this chunk read it, else kept as the completion of an earlier call. */
  complete(eventId: string, result: ToolCallResult): void;
  /** Counts a record left out, under its reason. */
  skip(reason: string): void;
}

/** The chunk a parser fills: its lists, and the three ways a parser adds to them. */
export function captureChunk<State extends object>(state: State, file: string): CaptureChunk<State> {
  const skipped: SkipCounts = {};
  const events: ToolCallEvent[] = [];
  const byId = new Map<string, ToolCallEvent>();
  const completions: CaptureCompletion[] = [];
  return {
    state,
    file,
    skipped,
    events,
    byId,
    completions,
    addCall(event, repeated = 'repeated_tool_call') {
      if (byId.has(event.id)) {
        countSkip(skipped, repeated);
        return false;
      }
      byId.set(event.id, event);
      events.push(event);
      return true;
    },
    complete(eventId, result) {
      const call = byId.get(eventId);
      if (call) call.result = result;
      else completions.push({ event_id: eventId, result });
    },
    skip(reason) {
      countSkip(skipped, reason);
    },
  };
}

/**
 * The frame of a JSON-lines capture parser (`FrameworkAdapter.parse`): walks the chunk's complete
 * lines (walkJsonLines) and hands each record, with the chunk it fills (plus the parser's own
 * `extra` fields) and its byte offset in the chunk, to `read`; `finish` runs after the last line;
 * the state is kept in `context.state` for the next chunk. A parser writes what its records mean.
 */
export function parseJsonLinesChunk<State extends object, Extra extends object = object>(
  input: string,
  context: CaptureParseContext,
  read: (record: Json, chunk: CaptureChunk<State> & Extra, byteOffset: number) => void,
  options: { state?: State; extra?: Extra; finish?: (chunk: CaptureChunk<State> & Extra) => void } = {},
): CaptureParseResult {
  const state = options.state ?? ((context.state ?? {}) as State);
  const chunk = { ...(options.extra as Extra), ...captureChunk(state, context.file) };
  const walk = walkJsonLines(input, chunk.skipped, (record, at) => read(record, chunk, at));
  options.finish?.(chunk);
  context.state = state as Record<string, unknown>;
  return { events: chunk.events, completions: chunk.completions, skipped: chunk.skipped, ...walk };
}
