import { AgentgovError } from '@agentgov/core';
import { simpleGit, type SimpleGit } from 'simple-git';

export interface CommitOutcome {
  committed: boolean;
  sha?: string;
  /** Files staged for the commit (the changed files and the linter's fixes). */
  files: string[];
  /** Files a pre-commit hook rewrote; they were re-staged and committed too. */
  hook_modified: string[];
  /** Why nothing was committed (a hook refused, nothing to commit). */
  reason?: string;
  /** The hook's or git's own output when it refused. */
  output?: string;
}

export interface PushOutcome {
  pushed: true;
  remote: string;
  branch: string;
  /** `<old>..<new>` as git reports it. */
  range?: string;
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).trim();
}

/** Files among `staged` that now differ from the index: what a hook rewrote. */
async function rewrittenBy(git: SimpleGit, staged: readonly string[]): Promise<string[]> {
  const dirty = new Set((await git.diff(['--name-only'])).split('\n').filter(Boolean));
  return staged.filter((f) => dirty.has(f));
}

/**
 * Stages `files` and commits with `message` through git itself, so the repository's pre-commit
 * hooks run. A hook that rewrites staged files gets them re-staged and the commit made again once:
 * after a refusal as a new attempt, after a success as an amend — either way one commit holds the
 * change and the hook's fix.
 */
export async function commitFiles(root: string, files: readonly string[], message: string): Promise<CommitOutcome> {
  const git = simpleGit({ baseDir: root });
  const unique = [...new Set(files)].sort();
  try {
    await git.raw(['add', '-A', '--', ...unique]);
  } catch (error) {
    throw new AgentgovError('E_COMMIT_FAILED', `git add failed: ${messageOf(error)}`, { files: unique });
  }
  const staged = (await git.diff(['--cached', '--name-only'])).split('\n').filter(Boolean);
  if (staged.length === 0) return { committed: false, files: unique, hook_modified: [], reason: 'nothing to commit: the changed files match HEAD' };
  const outcome: CommitOutcome = { committed: false, files: staged, hook_modified: [] };
  let first: unknown;
  try {
    await git.raw(['commit', '-m', message]);
  } catch (error) {
    first = error;
  }
  const rewritten = await rewrittenBy(git, staged);
  outcome.hook_modified = rewritten;
  if (rewritten.length) {
    await git.add(rewritten);
    try {
      await git.raw(first === undefined ? ['commit', '--amend', '--no-edit'] : ['commit', '-m', message]);
      first = undefined;
    } catch (error) {
      first = error;
    }
  }
  if (first !== undefined) return { ...outcome, reason: 'the pre-commit hook refused the commit; nothing was committed', output: messageOf(first).split('\n').slice(-20).join('\n') };
  outcome.committed = true;
  outcome.sha = (await git.revparse(['HEAD'])).trim();
  return outcome;
}

/**
 * Pushes the current branch to `origin`, never forced. A detached HEAD, a missing `origin`, a
 * branch without an upstream on origin, and a rejected push are `E_PUSH_FAILED` naming the commit
 * that stays local.
 */
export async function pushBranch(root: string, commit: string): Promise<PushOutcome> {
  const git = simpleGit({ baseDir: root });
  const fail = (why: string, remediation: string, details: Record<string, unknown> = {}) =>
    new AgentgovError('E_PUSH_FAILED', `committed ${commit.slice(0, 12)} locally, but did not push: ${why}. The local commit stays. ${remediation}`, { commit, ...details });
  const branch = (await git.revparse(['--abbrev-ref', 'HEAD'])).trim();
  if (branch === 'HEAD') throw fail('HEAD is detached', 'Check out a branch, then push it yourself.');
  const remotes = await git.getRemotes();
  if (!remotes.some((r) => r.name === 'origin')) throw fail('the repository has no remote named origin', 'Add one (`git remote add origin URL`), then push.', { branch });
  const upstream = await git.raw(['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{upstream}']).then((s) => s.trim(), () => '');
  if (!upstream.startsWith('origin/')) throw fail(`branch ${branch} has no upstream on origin${upstream ? ` (its upstream is ${upstream})` : ''}`, `Push it once yourself with \`git push -u origin ${branch}\`.`, { branch });
  try {
    const result = await git.push('origin', `${branch}:${upstream.slice('origin/'.length)}`);
    return { pushed: true, remote: 'origin', branch, ...(result.update ? { range: `${result.update.hash.from}..${result.update.hash.to}` } : {}) };
  } catch (error) {
    const text = messageOf(error);
    const rejected = /rejected|non-fast-forward|fetch first/i.test(text);
    throw fail(rejected ? 'origin rejected the push (it has commits this branch lacks)' : `git push failed: ${text.split('\n').slice(-3).join(' ')}`, rejected ? 'Pull (rebase) and push again; nothing was forced.' : 'Fix the cause and push yourself.', { branch, git: text.split('\n').slice(-8).join('\n') });
  }
}
