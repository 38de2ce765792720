/**
 * Where a running `watch` can be reached: the socket path and the per-run token. `watch`
 * registers the endpoint in system.db (the record `status` reads) and mirrors it into
 * `$AGENTGOV_HOME/gate.json` (0600) — the file is what the `gate` client reads, because opening
 * SQLite would cost the client more start-up time than its whole budget (see bench/gate).
 * Node built-ins only: gate start-up path.
 */
import { lstatSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentgovHome, PRIVATE_FILE_MODE, untrustedReason } from '@agentgov/core/paths';

export interface GateEndpoint {
  socket: string;
  token: string;
  pid: number;
  started_at: string;
  /**
   * The config file `watch` loaded (null: built-in defaults), so a client resolving the same file can reuse its gate
   * settings.
   */
  config_file: string | null;
  gate: { on_unavailable: 'ask' | 'deny' | 'allow'; timeout_ms: number; deadline_ms?: number };
}

export const gateSocketPath = (env: NodeJS.ProcessEnv = process.env): string => join(agentgovHome(env), 'gate.sock');
export const gateEndpointFile = (env: NodeJS.ProcessEnv = process.env): string => join(agentgovHome(env), 'gate.json');

/**
 * `$AGENTGOV_HOME` created private if needed; an existing one that is not private and ours is refused (core's paths).
 */
export { ensurePrivateHome } from '@agentgov/core/paths';

/** Writes the endpoint file atomically (temp file + rename), 0600. */
export function writeEndpointFile(endpoint: GateEndpoint, env: NodeJS.ProcessEnv = process.env): void {
  const file = gateEndpointFile(env);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(endpoint)}\n`, { mode: PRIVATE_FILE_MODE });
  renameSync(temp, file);
}

export type EndpointRead =
  { kind: 'found'; endpoint: GateEndpoint } | { kind: 'missing' } | { kind: 'unreadable'; message: string };

export function readEndpointFile(env: NodeJS.ProcessEnv = process.env): EndpointRead {
  const file = gateEndpointFile(env);
  // Checked before trusted: a gate.json another user wrote, or one others could have written,
  // could name a socket that answers allow to everything.
  const problem = untrustedReason(file, 'the gate endpoint file');
  if (problem) return { kind: 'unreadable', message: `${problem}: not used` };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unreadable', message: `${file} cannot be read (${(error as Error).message})` };
  }
  try {
    const value = JSON.parse(text) as Partial<GateEndpoint>;
    if (typeof value.socket !== 'string' || typeof value.token !== 'string')
      return { kind: 'unreadable', message: `${file} has no socket/token` };
    const socketProblem = socketOwnerProblem(value.socket);
    if (socketProblem) return { kind: 'unreadable', message: `${file} names ${socketProblem}: not used` };
    return { kind: 'found', endpoint: value as GateEndpoint };
  } catch (error) {
    return { kind: 'unreadable', message: `${file} is not valid JSON (${(error as Error).message})` };
  }
}

/**
 * Why the socket a gate.json names is not ours to talk to (another user's, or not a socket); undefined when it is, or
 * is gone.
 */
function socketOwnerProblem(socket: string): string | undefined {
  let stat;
  try {
    stat = lstatSync(socket);
  } catch {
    return undefined; // gone: the client reports a stale registration
  }
  if (!stat.isSocket()) return `${socket}, which is not a socket`;
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (uid !== undefined && stat.uid !== uid)
    return `the socket ${socket}, owned by uid ${stat.uid}, not by you (uid ${uid})`;
  return undefined;
}

/** Removes the endpoint file only if it is still ours (a newer `watch` may have replaced it). */
export function removeEndpointFile(token: string, env: NodeJS.ProcessEnv = process.env): void {
  const read = readEndpointFile(env);
  if (read.kind === 'found' && read.endpoint.token === token) rmSync(gateEndpointFile(env), { force: true });
}
