/**
 * The shell command an agent hook runs to reach the gate, and its check. The command names this
 * Node binary and the committed bin entry (cli/bin/agentgov.js) by absolute, real paths, so it runs
 * however agentgov was started (the bin link, `node <checkout>/cli`, npx, a path with spaces) and
 * never depends on the agent's PATH or on the entry's executable bit. Both must be regular files:
 * X_OK alone passes on a directory, which the shell then cannot run (exit 126).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AgentgovError } from '@agentgov/core';
import { argvToShell } from '@agentgov/core/shell-quote';
import type { GateHookFormat, HookDecision } from '@agentgov/core/gate-hook';
import { PROBE_ENV } from './run-gate.js';

/** The committed bin entry, from dist/src/gate/hook-command.js. */
export const BIN_ENTRY = fileURLToPath(new URL('../../../bin/agentgov.js', import.meta.url));

export { shellQuote } from '@agentgov/core/shell-quote';

function regularFile(path: string, what: string, mode: number): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new AgentgovError('E_NOT_FOUND', `${what} ${path} does not exist`, { path });
  }
  if (!statSync(real).isFile())
    throw new AgentgovError('E_NOT_FOUND', `${what} ${real} is not a regular file (a hook cannot run a directory)`, {
      path: real,
    });
  try {
    accessSync(real, mode);
  } catch {
    throw new AgentgovError(
      'E_NOT_FOUND',
      `${what} ${real} is not ${mode === constants.X_OK ? 'executable' : 'readable'}`,
      { path: real },
    );
  }
  return real;
}

/** `<node> <bin entry> gate --stdin --format <format>`, each word quoted for a POSIX shell. */
export function gateHookCommand(format: string, options: { entry?: string; node?: string } = {}): string {
  const node = regularFile(options.node ?? process.execPath, 'the Node binary', constants.X_OK);
  const entry = regularFile(options.entry ?? BIN_ENTRY, 'the agentgov entry', constants.R_OK);
  return argvToShell([node, entry, 'gate', '--stdin', '--format', format]);
}

export interface HookCheck {
  ok: boolean;
  /** What the agent would get on the probe (`rm -rf /`), when the output was a hook answer. */
  decision?: HookDecision;
  exitCode: number | null;
  /** One line saying what happened. */
  message: string;
}

/**
 * Runs `command` through `/bin/sh -c` exactly as the agent does, on the format's probe payload
 * (a call that must never be allowed), and checks the answer: exit 0 or 2 with a hook answer that
 * asks or denies. The probe is assessed but never sent to watch nor recorded (AGENTGOV_GATE_PROBE).
 */
export function checkHookCommand(
  command: string,
  format: GateHookFormat,
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): HookCheck {
  const run = spawnSync('/bin/sh', ['-c', command], {
    cwd: options.cwd,
    env: { ...(options.env ?? process.env), [PROBE_ENV]: '1' },
    input: JSON.stringify(format.probePayload(options.cwd)),
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 20_000,
  });
  const stderr = (run.stderr ?? '').trim().split('\n').slice(-3).join(' / ');
  // A hook that exits before reading its stdin (a directory, a missing file) races the write of the
  // payload: Node then reports EPIPE next to a real exit status, and the status is what the agent sees.
  const pipeOnly = (run.error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE' && run.status !== null;
  if ((run.error && !pipeOnly) || run.status === null)
    return {
      ok: false,
      exitCode: null,
      message: `the hook did not finish: ${run.error?.message ?? `killed by ${run.signal}`}`,
    };
  if (run.status !== 0 && run.status !== 2)
    return {
      ok: false,
      exitCode: run.status,
      message:
        `the hook exited ${run.status}, which the agent treats as a hook error and ` +
        `runs the call ungoverned${stderr ? `: ${stderr}` : ''}`,
    };
  const decision = format.readDecision(run.stdout, run.status);
  if (!decision)
    return {
      ok: false,
      exitCode: run.status,
      message:
        `the hook ran but its output is not a ` +
        `${format.name} hook answer: ${JSON.stringify(run.stdout.slice(0, 200))}`,
    };
  if (decision !== 'ask' && decision !== 'deny') {
    return {
      ok: false,
      decision,
      exitCode: run.status,
      message:
        `the hook ran but answered '${decision}' on the probe \`rm -rf /\`: check ` +
        `gate.on_unavailable and your rule overrides`,
    };
  }
  return {
    ok: true,
    decision,
    exitCode: run.status,
    message: `the hook ran and answered '${decision}' on the probe \`rm -rf /\``,
  };
}
