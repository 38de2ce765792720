/**
 * `agentgov watch` running beside an agent, as a person runs it: a child process of this checkout's
 * bin with the run's environment, started once it logs `watching`, stopped with SIGTERM.
 */
import { spawn } from 'node:child_process';
import { AGENTGOV_BIN } from './run-agent.mjs';

/** Polls `check` (sync or async) every 250 ms until it holds; throws `message()` after `ms`. */
export async function waitUntil(check, message, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(message());
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Starts `agentgov watch --no-score` for the run; resolves `{ output(), stop() }` once it is watching. `stop` resolves the exit code. */
export async function startWatch(run) {
  const child = spawn(process.execPath, [AGENTGOV_BIN, 'watch', '--no-score'], { cwd: run.project, env: run.env, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (d) => (log += d));
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const watch = {
    output: () => log,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
  try {
    await waitUntil(() => /watching /.test(log), () => `watch did not start:\n${log}`);
  } catch (error) {
    await watch.stop();
    throw error;
  }
  return watch;
}
