import { clearLine, cursorTo } from 'node:readline';
import {
  colourEnabled,
  coloursFor,
  type Colours,
  type GovernanceRecord,
  type RiskAction,
  type Sink,
} from '@agentgov/core';

const COLOUR_OF: Record<RiskAction, keyof Colours> = { allow: 'green', warn: 'yellow', ask: 'magenta', deny: 'red' };
const MAX_SUBJECT = 120;

/** What a call was about: the shell command, the path, the URL or the pattern. */
export function subjectOf(args: Record<string, unknown>): string {
  for (const key of ['command', 'file_path', 'notebook_path', 'path', 'url', 'pattern', 'query']) {
    const value = args[key];
    if (typeof value === 'string') {
      const flat = value.replace(/\s+/g, ' ').trim();
      return flat.length > MAX_SUBJECT ? `${flat.slice(0, MAX_SUBJECT - 1)}…` : flat;
    }
  }
  return '';
}

/** A record is notable when its action is not `allow` (or always, with `all`). */
export function isNotable(record: GovernanceRecord, all: boolean): boolean {
  return all || record.assessment.action !== 'allow';
}

/** One readable line: time, action, level and score, tool, session, what it was about, why. */
export function formatLine(record: GovernanceRecord, colour: boolean): string {
  const { event, assessment } = record;
  const action = assessment.action.toUpperCase().padEnd(5);
  const paint = coloursFor(colour)[COLOUR_OF[assessment.action]] as (text: string) => string;
  const verdict = paint(action);
  const level = `${assessment.level}:${assessment.score}`.padEnd(11);
  const subject = subjectOf(event.arguments);
  return (
    `${event.timestamp} ${verdict} ${level} ` +
    `${event.tool_name} [${event.session_id.slice(0, 8)}] ` +
    `${subject}${subject ? ' ' : ''}(${assessment.reason_code})\n`
  );
}

/**
 * Prints a line per notable record; colour as core's `colourEnabled` decides for the stream
 * (NO_COLOR off, FORCE_COLOR on, else only on a terminal).
 */
export function createConsoleSink(options: {
  stream: NodeJS.WritableStream & { isTTY?: boolean };
  all: boolean;
  env?: NodeJS.ProcessEnv;
}): Sink {
  const env = options.env ?? process.env;
  const tty = options.stream.isTTY === true;
  const colour = colourEnabled(options.stream, env);
  return {
    name: 'console',
    async write(record) {
      if (!isNotable(record, options.all)) return;
      if (tty) {
        // Clear the current line first: a progress bar drawn there (replay) is overwritten, not run into.
        clearLine(options.stream, 0);
        cursorTo(options.stream, 0);
      }
      options.stream.write(formatLine(record, colour));
    },
  };
}
