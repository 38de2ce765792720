/**
 * Codex CLI rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`): one
 * `{timestamp, type, payload}` object per line. `session_meta` opens the file (session id, cwd),
 * `turn_context` restates the cwd each turn, `response_item` carries the model's items — tool
 * calls (`function_call`, `custom_tool_call`, `local_shell_call`) and their outputs
 * (`function_call_output`, `custom_tool_call_output`) paired by `call_id`.
 */
import { basename, extname } from 'node:path';
import { canonicalToolOf, clipResultContent, isJsonObject, nonEmptyText, parseJsonLinesChunk } from '@agentgov/core';
import type { CanonicalTool, CaptureChunk, CaptureParser } from '@agentgov/core';
import { shellCommandOf } from './argv.js';
import { patchArguments } from './patch.js';

export const FRAMEWORK = 'codex';

type Json = Record<string, unknown>;

/** Line types that are part of the format but carry no tool calls. */
const QUIET_LINE_TYPES = new Set(['event_msg', 'compacted']);
/** `response_item` payloads that are part of the format but carry no tool call we gate. */
const QUIET_ITEM_TYPES = new Set(['message', 'reasoning', 'web_search_call', 'ghost_snapshot', 'compaction', 'other']);

/** Codex tool names → canonical kinds (core's table); MCP tools in rollouts are `<server>__<tool>`. */
export function codexCanonicalTool(name: string): CanonicalTool {
  const kind = canonicalToolOf(name);
  return kind === 'other' && name.includes('__') ? 'mcp' : kind;
}

interface RolloutState {
  sessionId?: string;
  cwd?: string;
}

export const eventId = (sessionId: string, callId: string): string => `${FRAMEWORK}:${sessionId}:${callId}`;

const text = nonEmptyText;

/** The session id written in a rollout's file name (`rollout-<time>-<uuid>.jsonl`), else the name. */
export function sessionIdOfFile(file: string): string {
  const stem = basename(file, extname(file));
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.exec(stem);
  return uuid ? uuid[0] : stem;
}

type Chunk = CaptureChunk<RolloutState>;

/** Parses a chunk of a Codex rollout; see FrameworkAdapter.parse. */
export const parseRollout: CaptureParser = (input, context) => parseJsonLinesChunk(input, context, readLine);

function readLine(line: Json, chunk: Chunk): void {
  const { type, payload } = line;
  const timestamp = text(line['timestamp']) ?? new Date(0).toISOString();
  if (typeof type === 'string' && QUIET_LINE_TYPES.has(type)) return;
  if (!isJsonObject(payload) || (type !== 'session_meta' && type !== 'turn_context' && type !== 'response_item')) {
    chunk.skip('unknown_line_type');
    return;
  }
  if (type === 'session_meta') {
    chunk.state.sessionId = text(payload['id']) ?? chunk.state.sessionId;
    chunk.state.cwd = text(payload['cwd']) ?? chunk.state.cwd;
  } else if (type === 'turn_context') {
    chunk.state.cwd = text(payload['cwd']) ?? chunk.state.cwd;
  } else {
    readItem(payload, timestamp, chunk);
  }
}

function readItem(item: Json, timestamp: string, chunk: Chunk): void {
  const itemType = item['type'];
  if (itemType === 'function_call' || itemType === 'custom_tool_call' || itemType === 'local_shell_call')
    readCall(item, timestamp, chunk);
  else if (itemType === 'function_call_output' || itemType === 'custom_tool_call_output')
    readOutput(item, timestamp, chunk);
  else if (typeof itemType !== 'string' || !QUIET_ITEM_TYPES.has(itemType)) chunk.skip('unknown_item_type');
}

/** The call's name and arguments as the risk engine reads them, or undefined when unusable. */
function callOf(item: Json): { name: string; args: Json } | undefined {
  if (item['type'] === 'local_shell_call') {
    const action = item['action'];
    if (!isJsonObject(action) || !Array.isArray(action['command'])) return undefined;
    return {
      name: 'local_shell',
      args: withCommand({
        argv: action['command'],
        ...(text(action['working_directory']) ? { workdir: action['working_directory'] } : {}),
      }),
    };
  }
  const name = text(item['name']);
  if (!name) return undefined;
  if (item['type'] === 'custom_tool_call') {
    const input = typeof item['input'] === 'string' ? item['input'] : '';
    return { name, args: name === 'apply_patch' ? patchArguments(input) : { input } };
  }
  let args: unknown;
  try {
    args = typeof item['arguments'] === 'string' ? JSON.parse(item['arguments']) : item['arguments'];
  } catch {
    return undefined;
  }
  if (!isJsonObject(args)) return undefined;
  return {
    name,
    args:
      codexCanonicalTool(name) === 'shell'
        ? withCommand(args)
        : name === 'apply_patch' && typeof args['input'] === 'string'
          ? patchArguments(args['input'])
          : args,
  };
}

/** Shell arguments with `command` as one string (Codex gives argv arrays, or `cmd`); the argv is kept. */
function withCommand(args: Json): Json {
  const argv = Array.isArray(args['command'])
    ? args['command']
    : Array.isArray(args['argv'])
      ? args['argv']
      : undefined;
  if (argv && argv.every((w) => typeof w === 'string'))
    return { ...args, argv, command: shellCommandOf(argv as string[]) };
  if (typeof args['command'] !== 'string' && typeof args['cmd'] === 'string') return { ...args, command: args['cmd'] };
  return args;
}

function readCall(item: Json, timestamp: string, chunk: Chunk): void {
  const callId = text(item['call_id']) ?? text(item['id']);
  const call = callOf(item);
  if (!callId || !call) {
    chunk.skip('invalid_tool_call');
    return;
  }
  const session = chunk.state.sessionId ?? sessionIdOfFile(chunk.file);
  chunk.addCall({
    id: eventId(session, callId),
    framework: FRAMEWORK,
    session_id: session,
    timestamp,
    cwd: chunk.state.cwd ?? '',
    tool_name: call.name,
    canonical_tool: codexCanonicalTool(call.name),
    arguments: call.args,
  });
}

/** A tool output: plain text, content items, or (shell) a JSON string `{output, metadata: {exit_code}}`. */
function resultOf(output: unknown, timestamp: string) {
  let content = '';
  let isError = false;
  if (typeof output === 'string') {
    content = output;
    try {
      const decoded: unknown = JSON.parse(output);
      if (isJsonObject(decoded) && typeof decoded['output'] === 'string') {
        content = decoded['output'];
        const metadata = decoded['metadata'];
        isError = isJsonObject(metadata) && typeof metadata['exit_code'] === 'number' && metadata['exit_code'] !== 0;
      }
    } catch {
      // plain text output
    }
  } else if (Array.isArray(output)) {
    content = output
      .map((part) => (isJsonObject(part) && typeof part['text'] === 'string' ? part['text'] : ''))
      .join('\n');
  } else if (isJsonObject(output)) {
    content = typeof output['content'] === 'string' ? output['content'] : JSON.stringify(output);
    isError = output['success'] === false;
  }
  return { content: clipResultContent(content), is_error: isError, timestamp };
}

function readOutput(item: Json, timestamp: string, chunk: Chunk): void {
  const callId = text(item['call_id']);
  if (!callId) {
    chunk.skip('invalid_tool_output');
    return;
  }
  const id = eventId(chunk.state.sessionId ?? sessionIdOfFile(chunk.file), callId);
  chunk.complete(id, resultOf(item['output'], timestamp));
}
