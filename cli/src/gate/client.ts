/**
 * The gate IPC client: one connection, one request frame, one response frame, bounded by a
 * timeout. Every way it can fail is a `GateFailure` value whose message says exactly what failed;
 * `gate.on_unavailable` turns it into a verdict. Node built-ins only: gate start-up path.
 */
import { createRequire } from 'node:module';
import type { GateEndpoint } from './endpoint.js';
import type { GateInput } from './input.js';
import { encodeFrame, FrameDecoder, PROTOCOL_VERSION, type GateDecision, type GateResponse } from './protocol.js';

export type GateFailureCode =
  | 'input_empty'
  | 'input_malformed'
  | 'input_invalid'
  | 'input_timeout'
  | 'probe'
  | 'local_assessment_failed'
  | 'no_endpoint'
  | 'endpoint_unreadable'
  | 'socket_missing'
  | 'socket_refused'
  | 'socket_error'
  | 'timeout'
  | 'deadline'
  | 'bad_token'
  | 'broken_reply'
  | 'server_refused';

export interface GateFailure {
  failure: GateFailureCode;
  message: string;
}

export function isGateFailure(value: unknown): value is GateFailure {
  return typeof value === 'object' && value !== null && 'failure' in value;
}

/** Sends one event to the endpoint and resolves to the decision or to the failure. Never rejects. */
export function requestDecision(
  endpoint: GateEndpoint,
  input: GateInput,
  timeoutMs: number,
): Promise<GateDecision | GateFailure> {
  let frame: Buffer;
  try {
    frame = encodeFrame({ v: PROTOCOL_VERSION, token: endpoint.token, input });
  } catch (error) {
    // An event JSON cannot encode (lists nested 200,000 deep): not sent; the gate assesses it in process.
    return Promise.resolve({
      failure: 'socket_error',
      message: `the event cannot be sent to the gate at ${endpoint.socket} (${(error as Error).message})`,
    });
  }
  return new Promise((resolve) => {
    // node:net is loaded here, not at start-up: with watch down no connection is made (~5 ms a call).
    const { connect } = createRequire(import.meta.url)('node:net') as typeof import('node:net');
    const socket = connect(endpoint.socket);
    const decoder = new FrameDecoder();
    let settled = false;
    const finish = (result: GateDecision | GateFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () =>
        finish({
          failure: 'timeout',
          message: `no reply from the gate at ${endpoint.socket} within ${timeoutMs} ms (gate.timeout_ms)`,
        }),
      timeoutMs,
    );
    socket.on('connect', () => socket.write(frame));
    socket.on('data', (chunk: Buffer) => {
      const frame = decoder.push(chunk);
      if (!frame) return;
      if (frame.kind !== 'frame') {
        finish({
          failure: 'broken_reply',
          message:
            `the gate at ${endpoint.socket} sent a broken reply (` +
            `${frame.kind === 'too_large' ? `frame of ${frame.bytes} bytes` : frame.message})`,
        });
        return;
      }
      finish(interpret(frame.value, endpoint));
    });
    socket.on('end', () =>
      finish({
        failure: 'broken_reply',
        message: `the gate at ${endpoint.socket} closed the connection without a complete reply`,
      }),
    );
    socket.on('error', (error: NodeJS.ErrnoException) => finish(connectFailure(error, endpoint)));
  });
}

function connectFailure(error: NodeJS.ErrnoException, endpoint: GateEndpoint): GateFailure {
  if (error.code === 'ENOENT') {
    return {
      failure: 'socket_missing',
      message:
        `the gate socket ${endpoint.socket} registered by watch (pid ` +
        `${endpoint.pid}) does not exist: stale registration, is \`agentgov watch\` ` +
        `running?`,
    };
  }
  if (error.code === 'ECONNREFUSED') {
    return {
      failure: 'socket_refused',
      message:
        `nothing listens on the gate socket ${endpoint.socket} (pid ` +
        `${endpoint.pid}): stale socket, is \`agentgov watch\` running?`,
    };
  }
  return {
    failure: 'socket_error',
    message: `cannot talk to the gate socket ${endpoint.socket}: ${error.code ?? ''} ${error.message}`.replace(
      /\s+/g,
      ' ',
    ),
  };
}

function interpret(value: unknown, endpoint: GateEndpoint): GateDecision | GateFailure {
  const reply = value as Partial<GateResponse> | null;
  if (typeof reply !== 'object' || reply === null || typeof reply.ok !== 'boolean') {
    return {
      failure: 'broken_reply',
      message: `the gate at ${endpoint.socket} sent a reply that is not a gate response`,
    };
  }
  if (!reply.ok) {
    const error = (reply as { error?: { code?: string; message?: string } }).error;
    if (error?.code === 'bad_token')
      return {
        failure: 'bad_token',
        message:
          `the gate at ${endpoint.socket} rejected the token in ` +
          `${'$AGENTGOV_HOME'}/gate.json: it belongs to another run of watch`,
      };
    return {
      failure: 'server_refused',
      message: `the gate refused the request: ${error?.code ?? 'unknown'}: ${error?.message ?? 'no message'}`,
    };
  }
  const decision = reply as GateDecision;
  const verdict = decision.verdict as Partial<GateDecision['verdict']> | undefined;
  if (
    !verdict ||
    !['allow', 'deny', 'ask'].includes(verdict.decision as string) ||
    typeof verdict.reason !== 'string' ||
    typeof decision.assessment !== 'object'
  ) {
    return { failure: 'broken_reply', message: `the gate at ${endpoint.socket} sent a reply without a valid verdict` };
  }
  return { event_id: decision.event_id, verdict: decision.verdict, assessment: decision.assessment };
}
