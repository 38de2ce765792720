import { join } from 'node:path';
import { createLogger, logsDir, type Logger, type LogLevel } from '@agentgov/core';

/** The server's log file for today: `$AGENTGOV_HOME/logs/serve-YYYY-MM-DD.log` (JSON lines, 0600 in a 0700 dir). */
export function serveLogFile(env: NodeJS.ProcessEnv = process.env, now = new Date()): string {
  return join(logsDir(env), `serve-${now.toISOString().slice(0, 10)}.log`);
}

/** Readable lines on stderr (stdout belongs to the stdio transport) and JSON lines in the log file. */
export function createServeLogger(level: LogLevel, stream: NodeJS.WritableStream = process.stderr): Logger {
  return createLogger({ level, stream, file: serveLogFile(), scope: 'serve' });
}
