import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The compiled CLI entry (the `agentgov` bin). */
export const CLI_MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `agentgov` binary as a child process (`entry`: another entry script, e.g. the bin). */
export function runCli(
  args: string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv; input?: string; entry?: string },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.entry ?? CLI_MAIN, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
