/**
 * GitHub Copilot CLI session state (`$COPILOT_HOME/session-state/<session id>/events.jsonl`): one
 * `{type, data, id, timestamp, parentId}` event per line, appended as the session runs.
 * `session.start` (and `session.resume`) carry the session id and the working directory
 * (`data.context.cwd`); `tool.execution_start` / `tool.execution_complete` are one tool call,
 * paired by `data.toolCallId`.
 */
import { basename, dirname } from 'node:path';
import { canonicalToolOf, clipResultContent, isJsonObject, nonEmptyText, parseJsonLinesChunk } from '@agentgov/core';
import type { CanonicalTool, CaptureChunk, CaptureParser } from '@agentgov/core';

export const FRAMEWORK = 'copilot-cli';

type Json = Record<string, unknown>;

/**
 * Event namespaces of the session-event schema (`session.start`, `assistant.message`, …): records
 * of these carry no tool call to ingest and are not "unknown".
 */
const KNOWN_NAMESPACES = new Set([
  'session',
  'user',
  'assistant',
  'tool',
  'skill',
  'subagent',
  'hook',
  'system',
  'permission',
  'elicitation',
  'sampling',
  'mcp',
  'model',
  'abort',
  'custom',
  'command',
  'commands',
  'external_tool',
  'auto_mode',
  'exit_plan_mode',
  'capabilities',
  'background_tasks',
  'factory_run',
  'skills',
  'custom_agents',
  'extensions',
  'canvas',
  'user_input',
  'pending_messages',
  'fusion',
  'ui',
  'binary_asset',
  'managed_settings',
  'tools',
]);

/** Copilot CLI tool names → canonical kinds (core's table); a call with `mcpServerName` is an MCP tool. */
export function copilotCanonicalTool(name: string, mcpServer?: string): CanonicalTool {
  return mcpServer ? 'mcp' : canonicalToolOf(name);
}

export const eventId = (sessionId: string, toolCallId: string): string => `${FRAMEWORK}:${sessionId}:${toolCallId}`;

const text = nonEmptyText;

interface SessionState {
  sessionId?: string;
  cwd?: string;
}

type Chunk = CaptureChunk<SessionState> & { fallbackSession: string };

/** Parses a chunk of a Copilot CLI `events.jsonl`; see FrameworkAdapter.parse. */
export const parseSessionEvents: CaptureParser = (input, context) => {
  // events.jsonl sits in a directory named after the session.
  return parseJsonLinesChunk(input, context, readEvent, {
    extra: { fallbackSession: basename(dirname(context.file)) },
  });
};

function readEvent(record: Json, chunk: Chunk): void {
  const type = record['type'];
  const data = record['data'];
  const namespace = typeof type === 'string' ? type.split('.')[0] : undefined;
  if (!namespace || !KNOWN_NAMESPACES.has(namespace) || !isJsonObject(data)) {
    chunk.skip('unknown_event_type');
    return;
  }
  const timestamp = text(record['timestamp']) ?? new Date(0).toISOString();
  if (type === 'session.start' || type === 'session.resume') {
    chunk.state.sessionId = text(data['sessionId']) ?? chunk.state.sessionId;
    const context = data['context'];
    if (isJsonObject(context)) chunk.state.cwd = text(context['cwd']) ?? chunk.state.cwd;
  } else if (type === 'tool.execution_start') {
    readStart(data, timestamp, chunk);
  } else if (type === 'tool.execution_complete') {
    readComplete(data, timestamp, chunk);
  }
}

function readStart(data: Json, timestamp: string, chunk: Chunk): void {
  const callId = text(data['toolCallId']);
  const name = text(data['toolName']);
  const args = data['arguments'];
  if (!callId || !name || !(args === undefined || isJsonObject(args))) {
    chunk.skip('invalid_tool_call');
    return;
  }
  const session = chunk.state.sessionId ?? chunk.fallbackSession;
  chunk.addCall({
    id: eventId(session, callId),
    framework: FRAMEWORK,
    session_id: session,
    timestamp,
    cwd: chunk.state.cwd ?? '',
    tool_name: name,
    canonical_tool: copilotCanonicalTool(name, text(data['mcpServerName'])),
    arguments: (args as Json | undefined) ?? {},
  });
}

function readComplete(data: Json, timestamp: string, chunk: Chunk): void {
  const callId = text(data['toolCallId']);
  if (!callId) {
    chunk.skip('invalid_tool_result');
    return;
  }
  const result = data['result'];
  const error = data['error'];
  const content =
    isJsonObject(result) && typeof result['content'] === 'string'
      ? result['content']
      : isJsonObject(error) && typeof error['message'] === 'string'
        ? error['message']
        : '';
  const outcome = {
    content: clipResultContent(content),
    is_error: data['success'] === false,
    timestamp,
  };
  chunk.complete(eventId(chunk.state.sessionId ?? chunk.fallbackSession, callId), outcome);
}
