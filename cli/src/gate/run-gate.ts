/**
 * The body of `agentgov gate --stdin`: read one event (bounded in size and time), ask the running
 * pipeline, print the verdict in the `--format` the agent reads. Shared by the clipanion command
 * and `main.ts`'s fast path. Everything it imports statically is Node built-ins and this
 * directory. A verdict from the running `watch` needs no config at all (its timeout is the one
 * `watch` registered); only when no verdict comes does the client resolve `gate.on_unavailable`,
 * reusing `watch`'s settings when it would load the same config file, else loading the config
 * itself (see config-file.ts).
 */
import { fstatSync, readFileSync, writeSync } from 'node:fs';
import type { GateHookFormat, GateOutcome } from '@agentgov/core/gate-hook';
import type { LocalAssessor } from './local-assessor.js';
import { isGateFailure, requestDecision, type GateFailure } from './client.js';
import { gateEndpointFile, readEndpointFile, type EndpointRead, type GateEndpoint } from './endpoint.js';
import { isInputProblem, parseGateText } from './input.js';
import { MAX_FRAME_BYTES } from './protocol.js';
import { unavailableOutcome, type OnUnavailable } from './verdict-format.js';
import { agentgovHome, untrustedReason } from '@agentgov/core/paths';

const DEFAULT_TIMEOUT_MS = 3000;
/** How long the gate waits for the agent to write and close stdin (AGENTGOV_GATE_STDIN_TIMEOUT_MS overrides). */
export const STDIN_TIMEOUT_MS = 5000;
/**
 * Set by `init`/`doctor` when they run an installed hook on its probe: the call is assessed, never sent to watch nor
 * recorded.
 */
export const PROBE_ENV = 'AGENTGOV_GATE_PROBE';

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

export interface GateRunResult {
  exitCode: number;
  /**
   * True when stdin was still open when the read timed out: the caller must exit the process (a pending read of fd 0
   * keeps it alive).
   */
  stdinPending: boolean;
}

type StdinRead = { text: string } | GateFailure;

/**
 * Reads stdin to its end, bounded by size (the frame limit) and by time. A regular file on fd 0 is
 * read with one synchronous read; a pipe, socket or TTY through the `process.stdin` stream, which
 * is destroyed when time runs out (a pending read of fd 0 in the thread pool would keep the process
 * from exiting).
 */
function readInput(
  stdin: NodeJS.ReadableStream | undefined,
  timeoutMs: number,
): Promise<StdinRead & { pending?: boolean }> {
  const tooLarge: GateFailure = {
    failure: 'input_invalid',
    message: `stdin holds more than ${MAX_FRAME_BYTES} bytes; one tool-call event is expected`,
  };
  if (!stdin) {
    try {
      const stat = fstatSync(0);
      if (stat.isFile())
        return Promise.resolve(stat.size > MAX_FRAME_BYTES ? tooLarge : { text: readFileSync(0, 'utf8') });
    } catch {
      // fd 0 closed or not stat-able: the stream reports it.
    }
  }
  const stream = stdin ?? process.stdin;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: StdinRead & { pending?: boolean }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream.removeAllListeners('data');
      if (!stdin) process.stdin.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () =>
        finish({
          failure: 'input_timeout',
          message: `stdin delivered no complete event within ${timeoutMs} ms (it was still open)`,
          pending: true,
        }),
      timeoutMs,
    );
    stream.on('data', (chunk: Buffer | string) => {
      const part = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += part.length;
      if (size > MAX_FRAME_BYTES) return finish(tooLarge);
      chunks.push(part);
    });
    stream.on('end', () => finish({ text: Buffer.concat(chunks).toString('utf8') }));
    stream.on('error', (error: Error) =>
      finish({ failure: 'input_malformed', message: `stdin could not be read (${error.message})` }),
    );
  });
}

function writeOut(stdout: NodeJS.WritableStream | undefined, text: string): void {
  if (text === '') return;
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

function stdinTimeout(env: NodeJS.ProcessEnv): number {
  const value = Number(env['AGENTGOV_GATE_STDIN_TIMEOUT_MS']);
  return Number.isFinite(value) && value > 0 ? value : STDIN_TIMEOUT_MS;
}

async function decide(
  io: GateRunIo,
  format: GateHookFormat,
  endpoint: GateEndpoint | undefined,
  unreadable: string | undefined,
  state: GateCallState,
): Promise<GateOutcome | GateFailure> {
  const input = await readInput(io.stdin, stdinTimeout(io.env));
  if (isGateFailure(input)) {
    state.pending = input.pending === true;
    return { failure: input.failure, message: input.message };
  }
  const parsed = parseGateText(input.text, format);
  if (isInputProblem(parsed)) return { failure: parsed.code, message: parsed.message };
  const probe = Boolean(io.env[PROBE_ENV]);
  let result: GateOutcome | GateFailure;
  if (probe) result = { failure: 'probe', message: 'a probe run by init/doctor is never sent to watch' };
  else if (unreadable) result = { failure: 'endpoint_unreadable', message: unreadable };
  else if (!endpoint)
    result = {
      failure: 'no_endpoint',
      message: `no gate is registered in ${gateEndpointFile(io.env)}: \`agentgov watch\` is not running`,
    };
  else {
    // The running watch's gate.timeout_ms: loading the config here would cost more than the budget.
    const reply = await requestDecision(endpoint, parsed, endpoint.gate?.timeout_ms ?? DEFAULT_TIMEOUT_MS);
    result = isGateFailure(reply)
      ? reply
      : { verdict: reply.verdict, event_id: reply.event_id, assessment: reply.assessment };
  }
  if (!isGateFailure(result) || !LOCAL_FALLBACK.has(result.failure)) return result;
  // watch is not there to answer: assess in process with the same config, rules and engine.
  const { assessLocally, assessWithShippedRules } = await import('./assess-locally.js');
  const options = { cwd: io.cwd, env: io.env, journal: !probe, learnGate: state.learnGate };
  try {
    return await assessLocally(parsed, options);
  } catch (error) {
    // The config, a rule file or a plugin could not be loaded: never an allow (see assessWithShippedRules).
    const why = `${(error as Error).message}; ${result.message}`;
    try {
      return await assessWithShippedRules(parsed, options, why);
    } catch (inner) {
      return {
        failure: 'local_assessment_failed',
        message:
          `${result.message}; assessing in process failed too: ` +
          `${(error as Error).message} (${(inner as Error).message})`,
      };
    }
  }
}

/**
 * Failures that mean "watch is not there" (rather than "watch is slow" or "the input is bad"): the gate assesses in
 * process.
 */
const LOCAL_FALLBACK = new Set<GateFailure['failure']>([
  'probe',
  'no_endpoint',
  'endpoint_unreadable',
  'socket_missing',
  'socket_refused',
  'socket_error',
  'bad_token',
  'broken_reply',
  'server_refused',
]);

interface GateCallState {
  /** stdin is still open, or work is still running: the caller must exit the process. */
  pending: boolean;
  learnGate: (gate: LocalAssessor['gate']) => void;
}

/** The hard deadline of one gate call when nothing sets it (gate.deadline_ms): see docs/risk.md. */
export const DEFAULT_DEADLINE_MS = 30_000;

/**
 * The call's deadline: `gate.deadline_ms` as the running watch registered it, else the default;
 * AGENTGOV_GATE_DEADLINE_MS may only lower it.
 */
function deadlineOf(env: NodeJS.ProcessEnv, endpoint: GateEndpoint | undefined): number {
  const registered = endpoint?.gate?.deadline_ms;
  let ms = typeof registered === 'number' && registered > 0 ? registered : DEFAULT_DEADLINE_MS;
  const override = Number(env['AGENTGOV_GATE_DEADLINE_MS']);
  if (Number.isFinite(override) && override > 0) ms = Math.min(ms, override);
  return ms;
}

/** on_unavailable for a call that could not finish: the registered value, never `allow`. */
const failClosed = (value: OnUnavailable | undefined): OnUnavailable => (value === 'deny' ? 'deny' : 'ask');

async function decideAndResolve(
  format: GateHookFormat,
  io: GateRunIo,
  endpoint: GateEndpoint | undefined,
  unreadable: string | undefined,
  state: GateCallState,
): Promise<GateOutcome> {
  let outcome = await decide(io, format, endpoint, unreadable, state);
  if (isGateFailure(outcome)) {
    // Only a failure needs gate.on_unavailable, so only a failure may pay for resolving it.
    const { gateSettings } = await import('./config-file.js');
    const { settings, problem } = await gateSettings(endpoint, io.cwd, io.env);
    if (problem) (io.stderr ?? process.stderr).write(`agentgov gate: ${problem}\n`);
    outcome = unavailableOutcome(outcome, settings.on_unavailable);
    if (problem) outcome.notes = [problem];
  } else if (outcome.unavailable?.code === 'policy_unreadable') {
    (io.stderr ?? process.stderr).write(`agentgov gate: ${outcome.notes?.[0] ?? outcome.unavailable.message}\n`);
  }
  return outcome;
}

export async function runGate(format: GateHookFormat, io: GateRunIo): Promise<GateRunResult> {
  const stderr = () => io.stderr ?? process.stderr;
  const started = Date.now();
  // A home others can write (or another user's) is not ours to trust: no config, endpoint or cache from it.
  const homeProblem = untrustedReason(agentgovHome(io.env), 'AGENTGOV_HOME');
  const read: EndpointRead = homeProblem ? { kind: 'missing' } : readEndpointFile(io.env);
  const endpoint = read.kind === 'found' ? read.endpoint : undefined;
  if (read.kind === 'unreadable') stderr().write(`agentgov gate: ${read.message}; assessing in process\n`);
  let deadlineMs = deadlineOf(io.env, endpoint);
  let timer: NodeJS.Timeout | undefined;
  let fire: (value: 'deadline') => void = () => undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    fire = resolve;
    timer = setTimeout(() => resolve('deadline'), deadlineMs);
  });
  let onUnavailable = endpoint?.gate?.on_unavailable;
  const state: GateCallState = {
    pending: false,
    // The configuration loaded on the way (watch down): its deadline may shorten the call's, never
    // lengthen it, and its on_unavailable says what the deadline answers (never allow).
    learnGate: (gate) => {
      if (gate?.on_unavailable) onUnavailable = gate.on_unavailable;
      const ms = gate?.deadline_ms;
      if (typeof ms !== 'number' || !(ms > 0) || ms >= deadlineMs) return;
      deadlineMs = ms;
      clearTimeout(timer);
      timer = setTimeout(() => fire('deadline'), Math.max(0, started + ms - Date.now()));
    },
  };
  const work: Promise<GateOutcome> = homeProblem
    ? refuseHome(format, io, homeProblem, state)
    : decideAndResolve(format, io, endpoint, read.kind === 'unreadable' ? read.message : undefined, state);
  const raced = await Promise.race([work, deadline]);
  clearTimeout(timer);
  let outcome: GateOutcome;
  // A verdict that arrives past the deadline (a timer cannot fire while the thread is busy) is not given either.
  if (raced === 'deadline' || Date.now() - started >= deadlineMs) {
    const message = `no verdict within the gate's deadline of ${deadlineMs} ms (gate.deadline_ms)`;
    stderr().write(`agentgov gate: ${message}; answering the fail-closed way\n`);
    outcome = unavailableOutcome({ failure: 'deadline', message }, failClosed(onUnavailable));
    // Whatever is still running must not keep the process (or the agent) waiting.
    state.pending = true;
  } else outcome = raced;
  const rendered = format.render(outcome);
  writeOut(io.stdout, rendered.stdout);
  return { exitCode: rendered.exitCode, stdinPending: state.pending };
}

/** An unsafe AGENTGOV_HOME: nothing in it is read; the call is judged by the shipped rules, at least `ask`. */
async function refuseHome(
  format: GateHookFormat,
  io: GateRunIo,
  problem: string,
  state: GateCallState,
): Promise<GateOutcome> {
  (io.stderr ?? process.stderr).write(`agentgov gate: refusing to use ${problem}\n`);
  const input = await readInput(io.stdin, stdinTimeout(io.env));
  if (isGateFailure(input)) {
    state.pending = input.pending === true;
    return unavailableOutcome(input, 'ask');
  }
  const parsed = parseGateText(input.text, format);
  if (isInputProblem(parsed)) return unavailableOutcome({ failure: parsed.code, message: parsed.message }, 'ask');
  const { assessWithShippedRules } = await import('./assess-locally.js');
  return assessWithShippedRules(parsed, { cwd: io.cwd, env: io.env, journal: false }, `refusing to use ${problem}`);
}
