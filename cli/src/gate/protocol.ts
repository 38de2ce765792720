/**
 * The gate IPC wire protocol: frames of a 4-byte big-endian length followed by that many bytes of
 * UTF-8 JSON, over a Unix domain socket. One request and one response per connection. A frame
 * announcing more than `MAX_FRAME_BYTES` is refused before a byte of its body is buffered.
 *
 * This module is on the `gate` client's start-up path: it imports nothing but Node built-ins.
 */
import type { Assessment, GateVerdict } from '@agentgov/core';
import type { GateInput } from './input.js';

export const PROTOCOL_VERSION = 1;
/** Largest frame either side accepts (the same bound as a Score API body). */
export const MAX_FRAME_BYTES = 1024 * 1024;
const HEADER_BYTES = 4;

export interface GateRequest {
  v: typeof PROTOCOL_VERSION;
  /** The per-run token of the `watch` that registered the endpoint. */
  token: string;
  input: GateInput;
}

export interface GateDecision {
  event_id: string;
  verdict: GateVerdict;
  assessment: Assessment;
}

export type GateResponse =
  ({ ok: true } & GateDecision) | { ok: false; error: { code: GateServerErrorCode; message: string } };

/** Why the server refused a request (the client turns each into a `gate.on_unavailable` verdict). */
export type GateServerErrorCode = 'bad_token' | 'bad_request' | 'frame_too_large' | 'decision_failed' | 'shutting_down';

export function encodeFrame(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  if (body.length > MAX_FRAME_BYTES)
    throw new RangeError(`frame of ${body.length} bytes exceeds the ${MAX_FRAME_BYTES}-byte limit`);
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header.writeUInt32BE(body.length, 0);
  return Buffer.concat([header, body]);
}

export type FrameResult =
  { kind: 'frame'; value: unknown } | { kind: 'too_large'; bytes: number } | { kind: 'malformed'; message: string };

/**
 * Accumulates socket chunks and yields the first complete frame. Returns `undefined` while the
 * frame is incomplete, so a peer that trickles bytes is bounded only by the caller's timeout.
 */
export class FrameDecoder {
  #chunks: Buffer[] = [];
  #buffered = 0;

  constructor(private readonly maxBytes = MAX_FRAME_BYTES) {}

  push(chunk: Buffer): FrameResult | undefined {
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    if (this.#buffered < HEADER_BYTES) return undefined;
    const head = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    this.#chunks = [head];
    const length = head.readUInt32BE(0);
    if (length > this.maxBytes) return { kind: 'too_large', bytes: length };
    if (this.#buffered < HEADER_BYTES + length) return undefined;
    const text = head.subarray(HEADER_BYTES, HEADER_BYTES + length).toString('utf8');
    try {
      return { kind: 'frame', value: JSON.parse(text) as unknown };
    } catch (error) {
      return { kind: 'malformed', message: (error as Error).message };
    }
  }
}
