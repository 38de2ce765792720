/**
 * agentx-code's JSONL transcripts, which are in Claude Code's format: read by core's
 * Claude-transcript parser under this framework's name.
 */
import { claudeTranscriptParser, transcriptEventId } from '@agentgov/core';

export const FRAMEWORK = 'agentx-code';

/** Results are stored for the record, not the whole tool output. */
export { MAX_RESULT_CHARS } from '@agentgov/core';

/** The stable event id: framework + session + tool-call id. */
export function eventId(sessionId: string, toolUseId: string): string {
  return transcriptEventId(FRAMEWORK, sessionId, toolUseId);
}

/**
 * Parses a chunk of an agentx-code JSONL transcript that starts at a line boundary; see
 * FrameworkAdapter.parse and core's claudeTranscriptParser.
 */
export const parseTranscript = claudeTranscriptParser(FRAMEWORK);
