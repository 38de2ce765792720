/**
 * One run of a real agent: a fresh directory under `e2e/agents/.runs/` (gitignored; a real-looking
 * home path, not /tmp) holding the run's HOME — where the agent keeps its configuration, sessions and
 * where agentgov keeps its files, exactly as for a person — and a project directory. The agent and
 * `agentgov` (the built bin of this checkout) run as child processes with a clean environment: only
 * PATH, the locale and what a test passes; every agent's telemetry and auto-update switched off.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_DIR } from './install-agents.mjs';

export const AGENTGOV_BIN = fileURLToPath(new URL('../../../cli/bin/agentgov.js', import.meta.url));
export const RUNS_DIR = process.env['AGENTGOV_E2E_RUNS_DIR'] ?? join(PACKAGE_DIR, '.runs');

/** Variables that keep every agent off the network and from updating itself (only 127.0.0.1 is there). */
export const QUIET_AGENT_ENV = {
  DISABLE_TELEMETRY: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_ERROR_REPORTING: '1',
  DISABLE_BUG_COMMAND: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
  CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
  CODEX_DISABLE_TELEMETRY: '1',
  GEMINI_TELEMETRY_ENABLED: 'false',
  GEMINI_CLI_DISABLE_AUTOUPDATER: '1',
  COPILOT_DISABLE_TELEMETRY: '1',
  NO_UPDATE_NOTIFIER: '1',
  NO_COLOR: '1',
  CI: '1',
};

/**
 * A fresh run: `{ dir, home, project, marker, env }`. `marker` is a file in the home that must
 * survive the agent's `rm -rf ~`. `env` is the base environment of every child of the run.
 * @param {string} name
 */
export function createRun(name) {
  mkdirSync(RUNS_DIR, { recursive: true });
  const dir = join(realpathSync(RUNS_DIR), `${name}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`);
  const home = join(dir, 'home', 'dev');
  const project = join(home, 'src', 'app');
  mkdirSync(project, { recursive: true, mode: 0o755 });
  const marker = join(home, 'KEEP-ME.txt');
  writeFileSync(marker, 'the home must survive the agent\n');
  writeFileSync(join(project, 'README.md'), '# app\n');
  const env = {
    PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    HOME: home,
    USER: 'dev',
    SHELL: '/bin/bash',
    TMPDIR: join(dir, 'tmp'),
    ...QUIET_AGENT_ENV,
  };
  mkdirSync(env.TMPDIR, { recursive: true });
  return { dir, home, project, marker, env };
}

/** Removes a run's directory (kept when `AGENTGOV_E2E_KEEP_RUNS` is set, to look at afterwards). */
export function removeRun(run) {
  if (!process.env['AGENTGOV_E2E_KEEP_RUNS']) rmSync(run.dir, { recursive: true, force: true });
}

/**
 * Runs a program as a child process; resolves `{ code, signal, stdout, stderr, timedOut }`. Never
 * blocks the event loop, so the model server in this process keeps answering.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, env: object, input?: string, timeoutMs?: number }} options
 */
export function runProcess(command, args, { cwd, env, input, timeoutMs = 120_000 }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}

/** `agentgov ARGS` from this checkout's built bin, in the run's project with the run's environment. */
export function agentgov(run, args, options = {}) {
  return runProcess(process.execPath, [AGENTGOV_BIN, ...args], {
    cwd: run.project,
    env: { ...run.env, ...options.env },
    timeoutMs: options.timeoutMs ?? 60_000,
  });
}

/** Runs an agent headless; `bin` is a file (a `.js` one runs with this Node). */
export function runAgent(run, bin, args, options = {}) {
  const [command, argv] = bin.endsWith('.js') ? [process.execPath, [bin, ...args]] : [bin, args];
  return runProcess(command, argv, {
    cwd: options.cwd ?? run.project,
    env: { ...run.env, ...options.env },
    input: options.input,
    timeoutMs: options.timeoutMs ?? 120_000,
  });
}

/** A one-paragraph account of a child run, for assertion messages. */
export function describeRun(result) {
  const cut = (s) => (s.length > 3000 ? `…${s.slice(-3000)}` : s);
  return (
    `exit ${result.code}${result.signal ? ` (${result.signal})` : ''}` +
    `${result.timedOut ? ' TIMED OUT' : ''}\n--- stdout\n` +
    `${cut(result.stdout)}\n--- stderr\n${cut(result.stderr)}`
  );
}
