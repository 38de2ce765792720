import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTestVenv, isolatedEnv, makeTempDir, writeTree } from '@agentgov/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** The real CLI binary (built by the root `tsc -b`). */
const MAIN = fileURLToPath(new URL('../../../../cli/dist/src/main.js', import.meta.url));

export type Structured = Record<string, unknown> & {
  error?: { code: string; message: string; details: Record<string, unknown> };
};

/** `agentgov serve --repo <repo>` over stdio with the SDK client; every bundled plugin loads (no config names any). */
export class ServeClient {
  stderr = '';
  private constructor(readonly client: Client) {}

  /** `config`: the text of an agentgov.yaml passed with `--config`; `args`: more `serve` arguments. */
  static async start(
    repo: string,
    env: Record<string, string> = {},
    options: { config?: string; args?: string[] } = {},
  ): Promise<ServeClient> {
    const home = makeTempDir('agentgov-home-');
    const args = [MAIN, 'serve', '--repo', repo, ...(options.args ?? [])];
    if (options.config !== undefined) {
      const file = join(makeTempDir('agentgov-config-'), 'agentgov.yaml');
      writeFileSync(file, options.config);
      args.push('--config', file);
    }
    const transport = new StdioClientTransport({
      command: process.execPath,
      args,
      env: isolatedEnv(home, env) as Record<string, string>,
      stderr: 'pipe',
    });
    const serve = new ServeClient(new Client({ name: 'checkpoint-test', version: '0.0.0' }));
    transport.stderr?.on('data', (chunk: Buffer) => void (serve.stderr += chunk.toString()));
    await serve.client.connect(transport).catch((error: Error) => {
      throw new Error(`serve did not start: ${error.message}\n${serve.stderr}`);
    });
    return serve;
  }

  /** Calls a tool, waiting out E_INDEX_NOT_READY; returns the structured content and the text. */
  async call(name: string, args: Record<string, unknown>): Promise<{ data: Structured; text: string }> {
    for (let attempt = 0; ; attempt++) {
      const result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 });
      const data = result.structuredContent as Structured;
      const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
      if (data.error?.code !== 'E_INDEX_NOT_READY' || attempt > 300) return { data, text };
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/**
 * The Python virtual environment the pytest runner's tests use (its package script creates it with
 * pytest and coverage), with ruff added: one venv for every Python tool the tests need.
 */
export function pythonToolsVenv(): string {
  const script = createRequire(import.meta.url).resolve('@agentgov/plugin-testrunner-pytest/python-env');
  const realHome = process.env['AGENTGOV_TEST_REAL_HOME'];
  // pip reads the user's own index configuration from the real home
  const python = execFileSync(process.execPath, [script], {
    encoding: 'utf8',
    env: realHome ? { ...process.env, HOME: realHome } : process.env,
  }).trim();
  const venv = dirname(dirname(python));
  ensureTestVenv(['ruff'], venv);
  return venv;
}

export function git(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/**
 * A work tree with `files` committed on `main`, cloned from a bare `origin` it tracks, with a
 * committer identity and a real pre-commit hook: it strips trailing whitespace from staged source
 * files (`hookGlob`) and appends a line to `.git/hook-marker`. `base`: where both go (a temp dir).
 */
export function repoWithOrigin(
  files: Record<string, string>,
  hookGlob: string,
  base = makeTempDir('checkpoint-'),
): { repo: string; origin: string } {
  const origin = `${base}/origin.git`;
  const repo = `${base}/work`;
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin]);
  execFileSync('git', ['init', '-q', '-b', 'main', repo]);
  writeTree(repo, files);
  git(repo, 'config', 'user.name', 'Checkpoint Test');
  git(repo, 'config', 'user.email', 'checkpoint@example.invalid');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'initial');
  git(repo, 'remote', 'add', 'origin', origin);
  git(repo, 'push', '-q', '-u', 'origin', 'main');
  writeTree(repo, {
    '.git/hooks/pre-commit': `#!/bin/sh\necho ran >> "$(git rev-parse --git-dir)/hook-marker"\ngit diff --cached --name-only --diff-filter=AM -- '${hookGlob}' | while read -r f; do sed -i 's/[[:space:]]*$//' "$f"; done\nexit 0\n`,
  });
  execFileSync('chmod', ['+x', `${repo}/.git/hooks/pre-commit`]);
  return { repo, origin };
}

/** Puts the work tree back to HEAD (tracked and untracked changes dropped, `.agentgov/` kept). */
export function resetTo(repo: string, ref = 'HEAD'): void {
  git(repo, 'reset', '-q', '--hard', ref);
  git(repo, 'clean', '-q', '-fd', '-e', '.agentgov', '-e', 'node_modules', '-e', '.venv');
}

/** Another clone of `origin` pushes a commit, so the work tree's next push is rejected. */
export function advanceOrigin(origin: string, file: string): void {
  const other = makeTempDir('checkpoint-other-');
  execFileSync('git', ['clone', '-q', origin, other]);
  writeTree(other, { [file]: 'someone else\n' });
  git(other, 'add', '-A');
  git(other, '-c', 'user.name=o', '-c', 'user.email=o@example.invalid', 'commit', '-q', '-m', 'elsewhere');
  git(other, 'push', '-q', 'origin', 'HEAD:main');
}
