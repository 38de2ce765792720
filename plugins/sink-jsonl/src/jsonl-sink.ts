import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, type GovernanceRecord, type Sink } from '@agentgov/core';

/** The JSONL record format version written in every line (documented in docs/cli.md). */
export const RECORD_VERSION = 1;
/** Open files kept at once; older ones are closed and reopened on demand (append). */
const MAX_OPEN = 64;

/** One line of output: the event and its assessment. */
export function toJsonlRecord(record: GovernanceRecord): string {
  return `${JSON.stringify({ version: RECORD_VERSION, event: record.event, assessment: record.assessment })}\n`;
}

/** A session id made safe as a file-name component. */
function safe(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_') || '_';
}

/** Expands `{session_id}` and `{framework}` in a path template. */
export function expandPathTemplate(template: string, record: GovernanceRecord): string {
  return template
    .replaceAll('{session_id}', safe(record.event.session_id))
    .replaceAll('{framework}', safe(record.event.framework));
}

/**
 * Appends one JSON line per record to the file its path template names. Files are private
 * (0600, directories 0700) and opened in append mode, so runs accumulate.
 */
export function createJsonlSink(options: { name?: string; path: string; baseDir: string }): Sink {
  const template = options.path.startsWith('~/')
    ? join(homedir(), options.path.slice(2))
    : resolve(options.baseDir, options.path);
  const streams = new Map<string, WriteStream>();
  const streamFor = (file: string): WriteStream => {
    let stream = streams.get(file);
    if (stream) {
      streams.delete(file);
      streams.set(file, stream); // most recently used last
      return stream;
    }
    mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    stream = createWriteStream(file, { flags: 'a', mode: PRIVATE_FILE_MODE });
    streams.set(file, stream);
    if (streams.size > MAX_OPEN) {
      const [oldest, old] = streams.entries().next().value as [string, WriteStream];
      streams.delete(oldest);
      old.end();
    }
    return stream;
  };
  return {
    name: options.name ?? 'jsonl',
    write(record) {
      const stream = streamFor(expandPathTemplate(template, record));
      return new Promise<void>((done, fail) =>
        stream.write(toJsonlRecord(record), (error) => (error ? fail(error) : done())),
      );
    },
    async close() {
      const open = [...streams.values()];
      streams.clear();
      await Promise.all(open.map((s) => new Promise<void>((done) => s.end(done))));
    },
  };
}
