import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { extname } from 'node:path';
import { captureFingerprint, rawConsumedBytes } from './capture-fingerprint.js';
import {
  AgentgovError,
  type Assessment,
  type CaptureParseResult,
  type EmitFailure,
  type FrameworkAdapter,
  type GovernanceDb,
  type GovernanceRecord,
  type IngestOffset,
  type Logger,
  type SkipCounts,
  type ToolCallEvent,
} from '@agentgov/core';

export interface IngestOptions {
  /** Read the file from byte 0 instead of its stored offset (replay); recorded events stay deduplicated. */
  fromStart?: boolean;
}

export interface IngestReport {
  file: string;
  /** Events recorded for the first time. */
  events: number;
  /** Events already in the database (same id), not recorded again. */
  duplicates: number;
  /** Results attached to calls recorded by an earlier read. */
  completed: number;
  /** Lines or blocks skipped, by reason. */
  skipped: SkipCounts;
  lines: number;
  /** Bytes consumed by this read. */
  bytes: number;
  /** Bytes at the end left for later: an unterminated, incomplete last line. */
  pendingBytes: number;
  /** The stored offset after this read. */
  offset: number;
  /** Why the stored offset was discarded and the file read from the start. */
  reset?: ResetReason;
  sinkFailures: number;
}

export interface IngestContext {
  db: GovernanceDb;
  logger: Logger;
  assess(event: ToolCallEvent): Promise<Assessment>;
  emit(record: GovernanceRecord): Promise<EmitFailure[]>;
  emitDuplicates: boolean;
}

/** Why a stored offset no longer applies: another inode, a smaller file, or other bytes before the offset. */
export type ResetReason = 'rotated' | 'truncated' | 'rewritten';

/** Bytes read per transaction; a line longer than this grows the read. */
export const CHUNK_BYTES = 4 * 1024 * 1024;

function addCounts(into: SkipCounts, from: SkipCounts): void {
  for (const [reason, n] of Object.entries(from)) into[reason] = (into[reason] ?? 0) + n;
}

/** Reads the next chunk from `offset` that ends at a line boundary (or at the end of the file). */
function readChunk(fd: number, offset: number): { raw: Buffer; text: string; bytes: number } {
  let size = CHUNK_BYTES;
  for (;;) {
    const buffer = Buffer.allocUnsafe(size);
    const read = readSync(fd, buffer, 0, size, offset);
    // A newline byte never occurs inside a UTF-8 sequence, nor is it swallowed by an invalid one.
    const end = read < size ? read : buffer.lastIndexOf(0x0a) + 1;
    if (end > 0 || read < size) {
      const raw = buffer.subarray(0, end);
      return { raw, text: raw.toString('utf8'), bytes: end };
    }
    size *= 2;
  }
}

interface ResumePoint {
  offset: number;
  /** Skip counts and events of the content before `offset` (kept in the offset row). */
  skipped: SkipCounts;
  events: number;
  /** Resets so far and the skips of the contents before the last one (kept in the offset row). */
  resets: SkipCounts;
  skippedBefore: SkipCounts;
  reset?: ResetReason;
}

function resetReason(stored: IngestOffset, stat: Stats, fd: number): ResetReason | undefined {
  if (stored.inode !== stat.ino) return 'rotated';
  if (stat.size < stored.offset) return 'truncated';
  // Offsets stored before fingerprints existed have none: they resume as they did.
  if (stored.fingerprint !== null && captureFingerprint(fd, stored.offset) !== stored.fingerprint) return 'rewritten';
  return undefined;
}

/**
 * Where to start reading: the stored offset, unless asked for the start or the file was rotated, truncated or
 * rewritten.
 */
function resumePoint(stored: IngestOffset | undefined, stat: Stats, fd: number, fromStart: boolean): ResumePoint {
  if (!stored) return { offset: 0, skipped: {}, events: 0, resets: {}, skippedBefore: {} };
  const kept = { resets: { ...stored.resets }, skippedBefore: { ...stored.skippedBefore } };
  if (fromStart) return { offset: 0, skipped: {}, events: 0, ...kept };
  const reset = resetReason(stored, stat, fd);
  if (!reset) return { offset: stored.offset, skipped: { ...stored.skipped }, events: stored.events, ...kept };
  // The old content's skips stay counted; the reset itself is counted too, so `status` shows both.
  addCounts(kept.skippedBefore, stored.skipped);
  addCounts(kept.resets, { [reset]: 1 });
  return { offset: 0, skipped: {}, events: 0, ...kept, reset };
}

/** Events assessed between two turns of the event loop. */
const YIELD_EVERY = 200;

interface AssessedChunk {
  /** The chunk's events in file order: new ones with their assessment, recorded ones as stored. */
  inOrder: { record: GovernanceRecord; stored: boolean }[];
  /** Capture ids of calls already recorded by the gate under another id: [alias, recorded id]. */
  aliases: [string, string][];
}

/**
 * Assesses a chunk's new events. A call already recorded — under its own id, as an alias, or by
 * the gate under another id (same session, tool and arguments, near in time) — is not recorded again.
 */
async function assessChunk(ctx: IngestContext, parsed: CaptureParseResult, file: string): Promise<AssessedChunk> {
  const chunk: AssessedChunk = { inOrder: [], aliases: [] };
  const claimed = new Set<string>();
  for (const [i, event] of parsed.events.entries()) {
    // Let I/O waiting behind a long chunk run now and then (an outbox sink's round trips to its
    // database): assessing a 4 MiB chunk would otherwise hold the event loop for its whole length.
    if (i > 0 && i % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    let recordedId = ctx.db.records.recordedId(event.id);
    if (recordedId === undefined) {
      recordedId = ctx.db.records.correlatedId(event, file, claimed);
      if (recordedId !== undefined) {
        claimed.add(recordedId);
        chunk.aliases.push([event.id, recordedId]);
      }
    }
    const existing = recordedId === undefined ? undefined : ctx.db.records.find(recordedId);
    if (existing) {
      if (event.result && !existing.event.result)
        parsed.completions.push({ event_id: existing.event.id, result: event.result });
      chunk.inOrder.push({ record: existing, stored: true });
    } else {
      chunk.inOrder.push({ record: { event, assessment: await ctx.assess(event) }, stored: false });
    }
  }
  return chunk;
}

/** Ingests one capture file; see `Pipeline.ingestFile`. */
export async function ingestCapture(
  ctx: IngestContext,
  adapter: FrameworkAdapter,
  file: string,
  options: IngestOptions = {},
): Promise<IngestReport> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new AgentgovError(
      'E_CAPTURE_UNREADABLE',
      `capture ${file} cannot be read: ${(error as Error).message}`,
      { file },
      { cause: error },
    );
  }
  try {
    const stat = fstatSync(fd);
    const resume = resumePoint(ctx.db.offsets.get(file), stat, fd, options.fromStart === true);
    if (resume.reset) ctx.logger.info(`${file} was ${resume.reset}; reading it from the start`);
    const report: IngestReport = {
      file,
      events: 0,
      duplicates: 0,
      completed: 0,
      skipped: {},
      lines: 0,
      bytes: 0,
      pendingBytes: 0,
      offset: resume.offset,
      sinkFailures: 0,
      ...(resume.reset ? { reset: resume.reset } : {}),
    };
    const state: Record<string, unknown> = {};
    // One parsed piece of the file: its events, the results completing earlier calls and the new
    // offset commit together, then the records go to the sinks.
    const step = async (parsed: CaptureParseResult, nextOffset: number): Promise<void> => {
      const { inOrder, aliases } = await assessChunk(ctx, parsed, file);
      addCounts(resume.skipped, parsed.skipped);
      const fingerprint = captureFingerprint(fd, nextOffset);
      const inserted = new Set(
        ctx.db.transaction(() => {
          for (const [alias, recordedId] of aliases) ctx.db.records.alias(alias, recordedId);
          const fresh = inOrder.filter((r) => !r.stored && ctx.db.records.insert(r.record, file)).map((r) => r.record);
          for (const c of parsed.completions) if (ctx.db.records.complete(c.event_id, c.result)) report.completed += 1;
          ctx.db.offsets.set({
            file,
            adapter: adapter.adapter,
            offset: nextOffset,
            size: stat.size,
            inode: stat.ino,
            skipped: resume.skipped,
            events: resume.events + fresh.length,
            fingerprint,
            resets: resume.resets,
            skippedBefore: resume.skippedBefore,
          });
          return fresh;
        }),
      );
      resume.events += inserted.size;
      report.events += inserted.size;
      report.duplicates += parsed.events.length - inserted.size;
      addCounts(report.skipped, parsed.skipped);
      report.lines += parsed.lines;
      report.bytes += nextOffset - report.offset;
      report.offset = nextOffset;
      const toEmit = inOrder
        .filter(({ record, stored }) => inserted.has(record) || (stored && ctx.emitDuplicates))
        .map(({ record }) => record);
      // Started in file order (each sink receives them in that order), awaited together: waiting
      // for each write to land before starting the next left the process idle most of the time.
      const failures = await Promise.all(toEmit.map((record) => ctx.emit(record)));
      report.sinkFailures += failures.reduce((n, f) => n + f.length, 0);
    };
    const document = extname(file) === '.json' ? jsonArrayDocument(fd, stat.size) : undefined;
    if (document?.complete) {
      // A JSON-array capture is one unit: re-read whole when it changes (recorded events stay deduplicated).
      if (report.offset !== stat.size || resume.reset || options.fromStart) {
        report.offset = 0;
        resume.skipped = {};
        await step(adapter.parse(document.lines, { file, state, offset: 0 }), stat.size);
      }
    } else if (document) {
      report.pendingBytes = stat.size - report.offset; // not a whole JSON document yet
    } else {
      for (;;) {
        const chunk = readChunk(fd, report.offset);
        if (chunk.bytes === 0) break;
        const parsed = adapter.parse(chunk.text, { file, state, offset: report.offset });
        const consumed = rawConsumedBytes(chunk.raw, chunk.text, parsed.consumedBytes);
        await step(parsed, report.offset + consumed);
        if (consumed < chunk.bytes) {
          report.pendingBytes = chunk.bytes - consumed;
          break;
        }
      }
    }
    logOutcome(ctx.logger, report);
    return report;
  } finally {
    closeSync(fd);
  }
}

/**
 * A `.json` capture that holds one JSON document rather than JSON lines — an array (an exported
 * transcript: its elements become JSON lines) or an object written whole (e.g. a Gemini CLI chat
 * recording of the legacy format: one JSON line) — or `complete: false` while it does not parse
 * yet. Undefined for any other content, which is read as JSON lines.
 */
function jsonArrayDocument(fd: number, size: number): { complete: boolean; lines: string } | undefined {
  const head = Buffer.alloc(Math.min(size, 64));
  readSync(fd, head, 0, head.length, 0);
  const first = head.toString('utf8').trimStart()[0];
  if (first !== '[' && first !== '{') return undefined;
  const whole = Buffer.alloc(size);
  readSync(fd, whole, 0, size, 0);
  const text = whole.toString('utf8');
  try {
    const value: unknown = JSON.parse(text);
    if (Array.isArray(value))
      return { complete: true, lines: value.map((item) => `${JSON.stringify(item) ?? 'null'}\n`).join('') };
    return { complete: true, lines: `${JSON.stringify(value)}\n` };
  } catch {
    // An object on its first line followed by more lines is JSON lines, not a document being written.
    if (first === '{' && isJsonLines(text)) return undefined;
    return { complete: false, lines: '' };
  }
}

/** The first line of `text` is a whole JSON value on its own. */
function isJsonLines(text: string): boolean {
  const newline = text.indexOf('\n');
  if (newline === -1) return false;
  try {
    JSON.parse(text.slice(0, newline));
    return true;
  } catch {
    return false;
  }
}

function logOutcome(logger: Logger, report: IngestReport): void {
  const skippedTotal = Object.values(report.skipped).reduce((a, b) => a + b, 0);
  if (skippedTotal > 0)
    logger.warn(
      `${report.file}: skipped ${skippedTotal} (${Object.entries(report.skipped)
        .map(([r, n]) => `${r}: ${n}`)
        .join(', ')})`,
    );
  if (report.pendingBytes > 0)
    logger.info(`${report.file}: ${report.pendingBytes} bytes of an incomplete last line left for a later read`);
}
