/**
 * Claude Code's project transcripts (`<config dir>/projects/<project>/<session>.jsonl`), read by
 * core's Claude-transcript parser under this framework's name.
 */
import { claudeTranscriptParser, transcriptEventId } from '@agentgov/core';

export const FRAMEWORK = 'claude-code';

/** The stable event id: framework + session + tool_use id. */
export function eventId(sessionId: string, toolUseId: string): string {
  return transcriptEventId(FRAMEWORK, sessionId, toolUseId);
}

/** Parses a chunk of a Claude Code transcript; see FrameworkAdapter.parse. */
export const parseTranscript = claudeTranscriptParser(FRAMEWORK);
