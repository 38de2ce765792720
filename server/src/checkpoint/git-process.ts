import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** What one git command did, with its exit status read directly (never inferred from its output). */
export interface GitRun {
  /** git's exit status; null when it was killed. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr as they came (git's and its hooks' output), the last OUTPUT_KEPT characters. */
  output: string;
  /** The deadline passed: git and everything it started (its process group) were killed. */
  timedOut: boolean;
}

export interface GitRunOptions {
  /** Added to the server's environment (GIT_INDEX_FILE, GIT_TRACE2_EVENT, …). */
  env?: Record<string, string>;
  /** Written to git's stdin (otherwise stdin is empty: a hook that reads it gets end-of-file). */
  input?: string;
  /** Kill git and its hooks (the whole process group) after this long. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const OUTPUT_KEPT = 64 * 1024;
/** After git exits, how long a hook's leftover child may hold its pipes open before we stop waiting. */
const PIPE_GRACE_MS = 1000;

function keepTail(text: string): string {
  return text.length > OUTPUT_KEPT ? text.slice(-OUTPUT_KEPT) : text;
}

/**
 * Runs `git args` in `root` as the leader of its own process group (hooks run inside it), so a
 * deadline or a cancelled call kills git and every hook process it started, not git alone.
 */
export function runGit(root: string, args: readonly string[], options: GitRunOptions = {}): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...options.env };
    const stdin = options.input === undefined ? 'ignore' : 'pipe';
    const child = spawn('git', args, { cwd: root, env, stdio: [stdin, 'pipe', 'pipe'], detached: true });
    if (options.input !== undefined) child.stdin?.end(options.input);
    const run: GitRun = { code: null, stdout: '', stderr: '', output: '', timedOut: false };
    let settled = false;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    };
    const expire = () => {
      run.timedOut = true;
      killGroup();
    };
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(expire, options.timeoutMs);
    const onAbort = () => killGroup();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (code: number | null) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      run.code = run.timedOut ? null : code;
      resolve(run);
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      run.stdout = keepTail(run.stdout + chunk.toString());
      run.output = keepTail(run.output + chunk.toString());
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      run.stderr = keepTail(run.stderr + chunk.toString());
      run.output = keepTail(run.output + chunk.toString());
    });
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => finish(code));
    // a hook may leave a background process holding git's pipes: git's own exit decides
    child.on('exit', (code) => setTimeout(() => finish(code), PIPE_GRACE_MS).unref());
  });
}

/** One hook git ran (from its trace2 events): its name, the file it ran, its exit status (null: killed). */
export interface HookRun {
  name: string;
  path: string;
  code: number | null;
}

/** What git's trace2 event stream says about one top-level command: the hooks it ran and its own errors. */
export interface GitTrace {
  hooks: HookRun[];
  /** Children that are not hooks (gpg, ssh-keygen, …) and exited non-zero, by their program. */
  failedChildren: { program: string; code: number | null }[];
  /** git's own error and fatal messages, in order. */
  errors: string[];
}

interface TraceEvent {
  event: string;
  sid: string;
  child_id?: number;
  child_class?: string;
  hook_name?: string;
  argv?: string[];
  code?: number;
  msg?: string;
}

/**
 * Reads a GIT_TRACE2_EVENT file. Only the top-level git's events count: the git commands a hook
 * runs write to the same file under a nested session id (`parent/child`).
 */
export function readTrace(file: string): GitTrace {
  const trace: GitTrace = { hooks: [], failedChildren: [], errors: [] };
  if (!existsSync(file)) return trace;
  const events: TraceEvent[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line) as TraceEvent);
    } catch {
      // a line cut short by a killed process
    }
  }
  const depth = (sid: string) => sid.split('/').length;
  const top = Math.min(...events.map((e) => depth(e.sid)));
  const children = new Map<number, { hook?: HookRun; program: string }>();
  for (const e of events.filter((event) => depth(event.sid) === top)) {
    if (e.event === 'child_start' && e.child_id !== undefined) {
      const program = e.argv?.[0] ?? '?';
      const hook = e.child_class === 'hook' ? { name: e.hook_name ?? program, path: program, code: null } : undefined;
      if (hook) trace.hooks.push(hook);
      children.set(e.child_id, { hook, program });
    } else if (e.event === 'child_exit' && e.child_id !== undefined) {
      const child = children.get(e.child_id);
      if (child?.hook) child.hook.code = e.code ?? null;
      else if (child && e.code !== 0) trace.failedChildren.push({ program: child.program, code: e.code ?? null });
    } else if (e.event === 'error' && e.msg) trace.errors.push(e.msg);
  }
  return trace;
}
