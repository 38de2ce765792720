import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, rmSync, statSync, utimesSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { join } from 'node:path';
import { AgentgovError } from '@agentgov/core';
import { readTrace, runGit, type GitRun, type GitTrace, type HookRun } from './git-process.js';

export interface CommitOutcome {
  committed: boolean;
  sha?: string;
  /** The commit's parent: HEAD before the checkpoint. */
  parent?: string;
  /** Files in the commit (the changed files, with the linters' and hooks' fixes to them). */
  files: string[];
  /** Files a pre-commit hook rewrote without staging them; they were re-staged once and committed too. */
  hook_modified: string[];
  /** Why nothing was committed (nothing to commit; checks failed). */
  reason?: string;
  /** Something the commit did not do that it was asked to (a hook refused the amend adding its own fix). */
  note?: string;
  /** Files the linters fixed that are not among changed_files: left in the work tree, not committed. */
  fixes_not_committed?: string[];
}

export interface PushOutcome {
  pushed: true;
  remote: string;
  branch: string;
  /** `<old>..<new>` as git reports it. */
  range?: string;
}

export interface GitDeadline {
  /** How long one git command with its hooks may run. */
  timeoutMs: number;
  signal?: AbortSignal;
}

const OUTPUT_LINES = 20;

function tail(text: string, lines = OUTPUT_LINES): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}

function nul(text: string): string[] {
  return text.split('\0').filter(Boolean);
}

/** A scratch file name in the git directory, unique to this call. */
function scratchIn(gitDir: string, what: string): string {
  return join(gitDir, `agentgov-${what}-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** The commit HEAD names, or '' when the branch has no commit yet. */
async function headCommit(root: string): Promise<string> {
  const run = await runGit(root, ['rev-parse', '-q', '--verify', 'HEAD^{commit}']);
  return run.code === 0 ? run.stdout.trim() : '';
}

async function parentsOf(root: string, commit: string): Promise<string[]> {
  const run = await runGit(root, ['rev-list', '--parents', '-n', '1', commit]);
  return run.stdout.trim().split(/\s+/).slice(1);
}

/** Runs a git command that must succeed; anything else is E_COMMIT_FAILED naming the step. */
async function must(root: string, args: string[], env: Record<string, string>, step: string): Promise<string> {
  const run = await runGit(root, args, { env });
  if (run.code !== 0) {
    const said = tail(run.stderr, 5);
    const message = `could not ${step}: git ${args[0]} exited ${run.code}: ${said}; nothing was committed`;
    throw new AgentgovError('E_COMMIT_FAILED', message, { output: tail(run.output) });
  }
  return run.stdout;
}

/** One `git commit` or `git push` run and what came of it; for a commit, judged from HEAD itself. */
interface Attempt {
  run: GitRun;
  trace: GitTrace;
  /** The new commit, when git exited 0 and HEAD moved to a commit whose parent is the old HEAD. */
  made?: string;
  head: string;
}

interface Failure {
  message: string;
  details: Record<string, unknown>;
}

function hookLabel(hook: HookRun): string {
  return `the ${hook.name} hook (${hook.path})`;
}

/** Why a commit or push did not succeed, in git's terms: a hook by name, a deadline, signing, git's own message. */
function failureOf(attempt: Attempt, action: 'commit' | 'push', timeoutMs: number, before: string): Failure {
  const { run, trace } = attempt;
  const output = tail(run.output);
  const nothing = action === 'commit' ? 'nothing was committed' : 'nothing was pushed';
  if (run.timedOut) {
    const hung = trace.hooks.find((h) => h.code === null);
    return {
      message:
        `${hung ? hookLabel(hung) : `git ${action}`} did not finish within ${timeoutMs / 1000} s ` +
        `(server.checkpoint.hook_timeout_s); it was stopped (its process group killed) and ${nothing}`,
      details: { reason: 'timeout', ...(hung ? { hook: hung.name, hook_path: hung.path } : {}), output },
    };
  }
  if (run.code === null) {
    const message = `git ${action} was stopped: the call was cancelled; ${nothing}`;
    return { message, details: { reason: 'cancelled', output } };
  }
  const refused = trace.hooks.find((h) => h.code !== 0);
  if (refused) {
    const silent = output ? '' : ' without printing anything';
    return {
      message: `${hookLabel(refused)} refused the ${action}: it exited ${refused.code}${silent}; ${nothing}`,
      details: { reason: 'hook', hook: refused.name, hook_path: refused.path, exit_code: refused.code, output },
    };
  }
  const said = trace.errors.length ? trace.errors.join('; ') : tail(run.stderr || run.output, 5).replace(/\n/g, ' ');
  if (/\bsign/i.test(said) || trace.failedChildren.some((c) => /gpg|ssh-keygen|x509|sign/i.test(c.program))) {
    return {
      message:
        `git could not sign the ${action}: ${said}. ` +
        `Check commit.gpgsign, gpg.format, gpg.program and user.signingkey; ${nothing}`,
      details: { reason: 'signing', output },
    };
  }
  if (run.code === 0 && action === 'push') {
    const message = 'git push exited 0 but did not report the branch as updated';
    return { message, details: { reason: 'no_update', output } };
  }
  if (run.code === 0) {
    const on = before.slice(0, 12) || 'the empty branch';
    const now = attempt.head.slice(0, 12) || 'unborn';
    return {
      message: `git exited 0 but HEAD did not move to a new commit on top of ${on} (it is ${now}); ${nothing}`,
      details: { reason: 'no_commit', head: attempt.head, output },
    };
  }
  return {
    message: `git ${action} exited ${run.code ?? 'on a signal'}: ${said || 'without a message'}; ${nothing}`,
    details: { reason: 'git', exit_code: run.code, output },
  };
}

/**
 * The commit step of a checkpoint. It commits exactly `files` (repository-relative, as the work tree has
 * them, deletions included) through a temporary index built from HEAD, so whatever else the user staged
 * stays staged and out of the commit, and the real index is only touched after git made the commit.
 *
 * Success is judged from git, never from the absence of an exception: `git commit` exited 0 and HEAD moved
 * to a new commit whose parent is the old HEAD. A pre-commit hook that rewrites some of `files` without
 * staging them gets them re-staged and the commit made again once: after a refusal as a new attempt,
 * after a success as an amend of the commit made a moment ago in this call (never any other). A refusal,
 * a hook past its deadline (killed with its process group), a signing failure: `E_COMMIT_FAILED`
 * naming it in git's words, with the output.
 */
export async function commitFiles(
  root: string,
  files: readonly string[],
  message: string,
  deadline: GitDeadline,
): Promise<CommitOutcome> {
  const paths = [...new Set(files)].sort();
  const gitDir = (await must(root, ['rev-parse', '--absolute-git-dir'], {}, 'find the git directory')).trim();
  const top = (await must(root, ['rev-parse', '--show-toplevel'], {}, 'find the top of the work tree')).trim();
  const scratch = scratchIn(gitDir, 'checkpoint');
  const index = { GIT_INDEX_FILE: `${scratch}.index` };
  const literal = { ...index, GIT_LITERAL_PATHSPECS: '1' };
  const before = await headCommit(root);
  const attempt = async (args: string[], replacing: string): Promise<Attempt> => {
    const traceFile = `${scratch}.trace2`;
    rmSync(traceFile, { force: true });
    const env = { ...index, GIT_TRACE2_EVENT: traceFile };
    const run = await runGit(root, args, { env, timeoutMs: deadline.timeoutMs, signal: deadline.signal });
    const trace = readTrace(traceFile);
    const head = await headCommit(root);
    const onTop = head !== '' && head !== replacing && (await parentsOf(root, head)).join(' ') === before;
    return { run, trace, head, ...(run.code === 0 && onTop ? { made: head } : {}) };
  };
  /** Changed files a hook rewrote in the work tree without staging its fix. */
  const rewritten = async () => {
    const unstaged = ['diff', '--name-only', '--relative', '-z', '--', ...paths];
    return nul(await must(root, unstaged, literal, 'compare the work tree'));
  };
  const restage = (fixed: string[]) => must(root, ['add', '-A', '--', ...fixed], literal, "re-stage the hook's fixes");
  try {
    // HEAD's tree, keeping the real index's stat data where an entry matches HEAD, so git does not
    // re-hash the whole work tree when it refreshes the temporary index before committing
    const realIndex = (await must(root, ['rev-parse', '--git-path', 'index'], {}, 'find the index')).trim();
    const realIndexPath = isAbsolute(realIndex) ? realIndex : join(root, realIndex);
    if (before && existsSync(realIndexPath)) {
      copyFileSync(realIndexPath, index.GIT_INDEX_FILE);
      // git's racy-entry check compares file times with the index file's own mtime: keep it
      const { atime, mtime } = statSync(realIndexPath);
      utimesSync(index.GIT_INDEX_FILE, atime, mtime);
    }
    const fromHead = before ? ['read-tree', '-m', before] : ['read-tree', '--empty'];
    await must(root, fromHead, index, 'prepare a temporary index from HEAD');
    await must(root, ['add', '-A', '--', ...paths], literal, 'stage the changed files');
    const listStaged = ['diff', '--cached', '--name-only', '--no-renames', '--relative', '-z'];
    const staged = nul(await must(root, listStaged, index, 'list the staged files'));
    if (staged.length === 0) {
      const reason = 'nothing to commit: the changed files match HEAD';
      return { committed: false, files: [], hook_modified: [], reason };
    }

    let last = await attempt(['commit', '-q', '-m', message], before);
    const hookModified = last.run.timedOut ? [] : await rewritten();
    let note: string | undefined;
    if (hookModified.length && last.made) {
      const first = last.made;
      await restage(hookModified);
      // amend only the commit this call just made, and only while HEAD still is that commit
      if ((await headCommit(root)) === first) {
        const amended = await attempt(['commit', '-q', '--amend', '--no-edit'], first);
        if (amended.made) last = amended;
        else {
          const why = failureOf(amended, 'commit', deadline.timeoutMs, first).message;
          note =
            `a hook refused the amend adding its own fix to ${hookModified.join(', ')}: the commit holds the change ` +
            `without it, and the fix is left in the work tree. ${why}`;
        }
      }
    } else if (hookModified.length && !last.run.timedOut && last.trace.hooks.some((h) => h.code !== 0)) {
      await restage(hookModified);
      last = await attempt(['commit', '-q', '-m', message], before);
    }
    if (!last.made) {
      const failure = failureOf(last, 'commit', deadline.timeoutMs, before);
      const rewrote = hookModified.length ? { hook_modified: hookModified } : {};
      const details = { ...failure.details, files: staged, ...rewrote };
      throw new AgentgovError('E_COMMIT_FAILED', failure.message, details);
    }
    const sha = last.made;
    const range = before ? [before, sha] : ['--root', sha];
    const changes = ['diff-tree', '--no-commit-id', '--name-only', '--no-renames', '-r', '-z', ...range];
    const indexNote = await syncIndex(top, nul(await must(top, changes, {}, 'list the committed files')));
    const relative = [...changes.slice(0, 1), '--relative', ...changes.slice(1)];
    const committed = nul(await must(root, relative, {}, 'list the committed files'));
    const notes = [note, indexNote].filter(Boolean).join(' ');
    const extra = { ...(before ? { parent: before } : {}), ...(notes ? { note: notes } : {}) };
    return { committed: true, sha, files: committed, hook_modified: hookModified, ...extra };
  } finally {
    for (const suffix of ['.index', '.index.lock', '.trace2']) rmSync(`${scratch}${suffix}`, { force: true });
  }
}

/**
 * The real index catches up with the commit for the committed paths only (they now match HEAD);
 * every other entry, the user's staged work, stays as it was. The commit is made either way: a
 * failure here (another git process holds index.lock) is a note saying how to catch up by hand.
 */
async function syncIndex(top: string, committed: string[]): Promise<string | undefined> {
  if (committed.length === 0) return undefined;
  const run = await runGit(top, ['reset', '-q', '--', ...committed], { env: { GIT_LITERAL_PATHSPECS: '1' } });
  // `git reset -q -- paths` exits 1 when entries still differ from the work tree: not a failure
  if (run.code === 0 || run.code === 1) return undefined;
  return (
    `the index was not updated for ${committed.join(', ')} (git reset: ${tail(run.stderr, 3).replace(/\n/g, ' ')}); ` +
    'they show as staged reversals until `git reset -q -- <those files>` is run.'
  );
}

/**
 * Pushes the current branch to `origin`, never forced, judged by git's exit status and its porcelain
 * report for the ref. A detached HEAD, a missing `origin`, a branch without an upstream on origin, a
 * rejected push, a pre-push hook that refuses or hangs: `E_PUSH_FAILED` naming the commit that stays local.
 */
export async function pushBranch(root: string, commit: string, deadline: GitDeadline): Promise<PushOutcome> {
  const fail = (why: string, remediation: string, details: Record<string, unknown> = {}) => {
    const local = `committed ${commit.slice(0, 12)} locally`;
    const message = `${local}, but did not push: ${why}. The local commit stays. ${remediation}`;
    return new AgentgovError('E_PUSH_FAILED', message, { commit, ...details });
  };
  const branch = (await runGit(root, ['rev-parse', '--abbrev-ref', 'HEAD'])).stdout.trim();
  if (branch === 'HEAD') throw fail('HEAD is detached', 'Check out a branch, then push it yourself.');
  const remotes = (await runGit(root, ['remote'])).stdout.split('\n').map((r) => r.trim());
  if (!remotes.includes('origin')) {
    const remediation = 'Add one (`git remote add origin URL`), then push.';
    throw fail('the repository has no remote named origin', remediation, { branch });
  }
  const upstreamRun = await runGit(root, ['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{upstream}']);
  const upstream = upstreamRun.code === 0 ? upstreamRun.stdout.trim() : '';
  if (!upstream.startsWith('origin/')) {
    const its = upstream ? ` (its upstream is ${upstream})` : '';
    const remediation = `Push it once yourself with \`git push -u origin ${branch}\`.`;
    throw fail(`branch ${branch} has no upstream on origin${its}`, remediation, { branch });
  }
  const target = `refs/heads/${upstream.slice('origin/'.length)}`;
  const gitDir = (await runGit(root, ['rev-parse', '--absolute-git-dir'])).stdout.trim();
  const traceFile = `${scratchIn(gitDir, 'push')}.trace2`;
  try {
    const env = { GIT_TRACE2_EVENT: traceFile };
    const push = ['push', '--porcelain', 'origin', `refs/heads/${branch}:${target}`];
    const run = await runGit(root, push, { env, timeoutMs: deadline.timeoutMs, signal: deadline.signal });
    // porcelain: `<flag>\t<from>:<to>\t<summary>`; ' ' fast-forward, '*' new, '=' up to date, '!' rejected
    const line = run.stdout.split('\n').find((l) => l.split('\t')[1]?.endsWith(`:${target}`));
    const [flag, , summary = ''] = line?.split('\t') ?? [];
    if (run.code === 0 && flag !== undefined && ' *='.includes(flag)) {
      const range = /^([0-9a-f]+\.\.[0-9a-f]+)/.exec(summary)?.[1];
      return { pushed: true, remote: 'origin', branch, ...(range ? { range } : {}) };
    }
    const text = tail(run.output, 8);
    if (flag === '!' && /remote rejected/i.test(summary)) {
      // origin's own hooks or branch protection: `[remote rejected] main -> main (pre-receive hook declined)`
      const remediation = 'Fix what origin names, then push yourself.';
      throw fail(`origin refused the push: ${summary}`, remediation, { branch, git: text });
    }
    if (flag === '!' && /rejected|non-fast-forward|fetch first/i.test(summary)) {
      const remediation = 'Pull (rebase) and push again; nothing was forced.';
      throw fail('origin rejected the push (it has commits this branch lacks)', remediation, { branch, git: text });
    }
    const failure = failureOf({ run, trace: readTrace(traceFile), head: commit }, 'push', deadline.timeoutMs, commit);
    const why = failure.message.replace(/; nothing was pushed$/, '');
    throw fail(why, 'Fix the cause and push yourself.', { branch, ...failure.details, git: text });
  } finally {
    rmSync(traceFile, { force: true });
  }
}
