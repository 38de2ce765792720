/**
 * The body of `agentgov gate --stdin`: read one event, ask the running pipeline, print the
 * verdict, exit 0. Shared by the clipanion command and `main.ts`'s fast path. Everything it
 * imports statically is Node built-ins and this directory. A verdict from the running `watch` needs
 * no config at all (its timeout is the one `watch` registered); only when no verdict comes does
 * the client resolve `gate.on_unavailable`, reusing `watch`'s settings when it would load the same
 * config file, else loading the config itself (see config-file.ts).
 */
import { readFileSync, writeSync } from 'node:fs';
import { isGateFailure, requestDecision, type GateFailure } from './client.js';
import { gateEndpointFile, readEndpointFile, type GateEndpoint } from './endpoint.js';
import { isInputProblem, parseGateText } from './input.js';
import { MAX_FRAME_BYTES } from './protocol.js';

const DEFAULT_TIMEOUT_MS = 3000;
import { formatOutcome, unavailableOutcome, type GateFormat, type GateOutcome } from './verdict-format.js';

export interface GateRunIo {
  /** Where the event is read from; undefined: the process's fd 0, read without creating `process.stdin`. */
  stdin: NodeJS.ReadableStream | undefined;
  /** Where the verdict goes; undefined: fd 1, written without creating `process.stdout`. */
  stdout: NodeJS.WritableStream | undefined;
  /** Where problems are reported; undefined: `process.stderr`, created only if needed. */
  stderr: NodeJS.WritableStream | undefined;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * Reads stdin up to the frame limit; more than that is reported. The process's own stdin is read
 * with one synchronous read of fd 0, which spares creating the stdin stream (a measurable part of
 * the start-up budget); a non-blocking fd (EAGAIN) falls back to the stream.
 */
async function readInput(stdin: NodeJS.ReadableStream | undefined): Promise<{ text: string } | GateFailure> {
  let buffer: Buffer | undefined;
  if (!stdin) {
    try {
      buffer = readFileSync(0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    }
  }
  if (!buffer) {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stdin ?? process.stdin) {
      const part = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += part.length;
      if (size > MAX_FRAME_BYTES) break;
      chunks.push(part);
    }
    buffer = size > MAX_FRAME_BYTES ? Buffer.alloc(MAX_FRAME_BYTES + 1) : Buffer.concat(chunks);
  }
  if (buffer.length > MAX_FRAME_BYTES) return { failure: 'input_invalid', message: `stdin holds more than ${MAX_FRAME_BYTES} bytes; one tool-call event is expected` };
  return { text: buffer.toString('utf8') };
}

function writeOut(stdout: NodeJS.WritableStream | undefined, text: string): void {
  if (!stdout) {
    try {
      writeSync(1, text);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    }
  }
  (stdout ?? process.stdout).write(text);
}

async function decide(io: GateRunIo, endpoint: GateEndpoint | undefined): Promise<GateOutcome | GateFailure> {
  const input = await readInput(io.stdin);
  if (isGateFailure(input)) return input;
  const parsed = parseGateText(input.text);
  if (isInputProblem(parsed)) return { failure: parsed.code, message: parsed.message };
  if (!endpoint) return { failure: 'no_endpoint', message: `no gate is registered in ${gateEndpointFile(io.env)}: \`agentgov watch\` is not running` };
  // The running watch's gate.timeout_ms: loading the config here would cost more than the budget.
  const result = await requestDecision(endpoint, parsed, endpoint.gate?.timeout_ms ?? DEFAULT_TIMEOUT_MS);
  if (isGateFailure(result)) return result;
  return { verdict: result.verdict, event_id: result.event_id, assessment: result.assessment };
}

export async function runGate(format: GateFormat, io: GateRunIo): Promise<number> {
  const read = readEndpointFile(io.env);
  const endpoint = read.kind === 'found' ? read.endpoint : undefined;
  let outcome = read.kind === 'unreadable' ? ({ failure: 'endpoint_unreadable', message: read.message } as GateFailure) : await decide(io, endpoint);
  if (isGateFailure(outcome)) {
    // Only a failure needs gate.on_unavailable, so only a failure may pay for resolving it.
    const { gateSettings } = await import('./config-file.js');
    const { settings, problem } = await gateSettings(endpoint, io.cwd, io.env);
    if (problem) (io.stderr ?? process.stderr).write(`agentgov gate: ${problem}\n`);
    outcome = unavailableOutcome(outcome, settings.on_unavailable);
  }
  writeOut(io.stdout, formatOutcome(outcome, format));
  return 0;
}
