import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../paths/home.js';

export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARNING', 'ERROR'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const rank: Record<LogLevel, number> = { DEBUG: 10, INFO: 20, WARNING: 30, ERROR: 40 };

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(scope: string): Logger;
}

export interface LoggerOptions {
  level?: LogLevel;
  scope?: string;
  /** Where human-readable lines go; stderr by default (never stdout: stdio MCP owns it). */
  stream?: NodeJS.WritableStream | null;
  /** Optional log file receiving JSON lines. */
  file?: string;
}

export function parseLogLevel(value: string): LogLevel | undefined {
  const upper = value.toUpperCase();
  if (upper === 'WARN') return 'WARNING';
  return (LOG_LEVELS as readonly string[]).includes(upper) ? (upper as LogLevel) : undefined;
}

/** A small structured logger: readable lines on stderr, JSON lines in an optional private log file. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'INFO';
  const stream = options.stream === undefined ? process.stderr : options.stream;
  if (options.file) mkdirSync(dirname(options.file), { recursive: true, mode: PRIVATE_DIR_MODE });
  const write = (at: LogLevel, scope: string | undefined, message: string, fields?: Record<string, unknown>) => {
    if (rank[at] < rank[level]) return;
    const time = new Date().toISOString();
    if (stream) {
      const extra = fields && Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : '';
      stream.write(`${time} ${at.padEnd(7)} ${scope ? `[${scope}] ` : ''}${message}${extra}\n`);
    }
    if (options.file) {
      appendFileSync(options.file, `${JSON.stringify({ time, level: at, scope, message, ...fields })}\n`, {
        mode: PRIVATE_FILE_MODE,
      });
    }
  };
  const make = (scope: string | undefined): Logger => ({
    debug: (m, f) => write('DEBUG', scope, m, f),
    info: (m, f) => write('INFO', scope, m, f),
    warn: (m, f) => write('WARNING', scope, m, f),
    error: (m, f) => write('ERROR', scope, m, f),
    child: (s) => make(scope ? `${scope}:${s}` : s),
  });
  return make(options.scope);
}

/** A logger that drops everything; for tests and library use without output. */
export const silentLogger: Logger = createLogger({ stream: null, level: 'ERROR' });
