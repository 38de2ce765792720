import { createHash } from 'node:crypto';
import { readSync } from 'node:fs';

/** Bytes hashed at the head of a capture and just before its stored offset. */
export const FINGERPRINT_WINDOW = 4096;

function window(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const read = length > 0 ? readSync(fd, buffer, 0, length, position) : 0;
  return buffer.subarray(0, read);
}

/**
 * What the consumed part of a capture looked like: a hash of its first bytes and of the bytes just
 * before `offset`. A file appended to keeps it; a file rewritten in place (same inode, same or
 * larger size, other content) almost always changes one of the two windows, so it is read again
 * from the start instead of from an offset that now points into the middle of another line.
 */
export function captureFingerprint(fd: number, offset: number): string {
  const head = window(fd, 0, Math.min(offset, FINGERPRINT_WINDOW));
  const tailStart = Math.max(head.length, offset - FINGERPRINT_WINDOW);
  const tail = window(fd, tailStart, offset - tailStart);
  return createHash('sha256')
    .update(`${offset}:${head.length}:${tail.length}:`)
    .update(head)
    .update(tail)
    .digest('hex')
    .slice(0, 32);
}

/**
 * Where in the raw bytes a parser's consumption ends. Parsers count the UTF-8 bytes of the text they
 * were given; with invalid UTF-8 in the file that count drifts from the file's bytes (a bad byte
 * decodes to U+FFFD, three bytes). Newlines survive decoding one for one, so the end is found by
 * counting the newlines consumed and locating the same one in the raw bytes.
 */
export function rawConsumedBytes(raw: Buffer, text: string, consumedBytes: number): number {
  const decoded = Buffer.from(text, 'utf8');
  // Decoding only ever grows or keeps the length; equal lengths mean every byte maps to itself.
  if (decoded.length === raw.length) return consumedBytes;
  if (consumedBytes >= decoded.length) return raw.length;
  let newlines = 0;
  for (let at = decoded.indexOf(0x0a); at !== -1 && at < consumedBytes; at = decoded.indexOf(0x0a, at + 1))
    newlines += 1;
  let end = 0;
  for (let n = 0; n < newlines; n += 1) end = raw.indexOf(0x0a, end) + 1;
  return end;
}
