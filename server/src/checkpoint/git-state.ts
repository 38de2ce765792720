import { existsSync, lstatSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { AgentgovError } from '@agentgov/core';
import { runGit } from './git-process.js';

/** An operation git leaves half-done on disk, found by the file it keeps in the git directory. */
interface Operation {
  name: string;
  marker: string;
  finish: string;
  abort: string;
}

const OPERATIONS: readonly Operation[] = [
  { name: 'merge', marker: 'MERGE_HEAD', finish: 'resolve the conflicts and `git commit`', abort: 'git merge --abort' },
  { name: 'rebase', marker: 'rebase-merge', finish: '`git rebase --continue`', abort: 'git rebase --abort' },
  {
    name: 'rebase',
    marker: 'rebase-apply',
    finish: 'resolve and `git rebase --continue` (or `git am --continue`)',
    abort: 'git rebase --abort',
  },
  {
    name: 'cherry-pick',
    marker: 'CHERRY_PICK_HEAD',
    finish: 'resolve and `git cherry-pick --continue`',
    abort: 'git cherry-pick --abort',
  },
  { name: 'revert', marker: 'REVERT_HEAD', finish: 'resolve and `git revert --continue`', abort: 'git revert --abort' },
  { name: 'bisect', marker: 'BISECT_LOG', finish: 'mark the last commits', abort: 'git bisect reset' },
];

/** git's complaint in short: its first line and its fatal/error lines ("Author identity unknown; fatal: …"). */
function gitSays(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const fatal = lines.filter((l) => /^(fatal|error):/.test(l));
  return [...new Set([lines[0] ?? '', ...fatal])].filter(Boolean).join('; ');
}

/**
 * Refuses (`E_GIT_OPERATION_IN_PROGRESS`) while a merge, rebase, cherry-pick, revert or bisect is
 * in progress: auto-fixes and a commit would land in the middle of it. Outside git: nothing to say.
 */
export async function refuseOperationInProgress(root: string): Promise<void> {
  const args = ['rev-parse', ...OPERATIONS.flatMap((o) => ['--git-path', o.marker])];
  const run = await runGit(root, args);
  if (run.code !== 0) return;
  const paths = run.stdout.split('\n').filter(Boolean);
  const found = OPERATIONS.find((_, i) => {
    const path = paths[i];
    return path !== undefined && existsSync(isAbsolute(path) ? path : join(root, path));
  });
  if (!found) return;
  throw new AgentgovError(
    'E_GIT_OPERATION_IN_PROGRESS',
    `a ${found.name} is in progress (${found.marker}): checkpoint does not lint, test or commit in the middle ` +
      'of one, ' +
      `since its auto-fixes and its commit would land in the ${found.name}. Finish it (${found.finish}) or abort it ` +
      `(\`${found.abort}\`), then run checkpoint again.`,
    { operation: found.name, marker: found.marker },
  );
}

/** Whether git knows `path` (in the index or in HEAD): a missing file it tracks is a deletion. */
async function tracked(root: string, path: string): Promise<boolean> {
  const literal = { GIT_LITERAL_PATHSPECS: '1' };
  const inIndex = await runGit(root, ['ls-files', '--cached', '-z', '--', path], { env: literal });
  if (inIndex.code === 0 && inIndex.stdout.length > 0) return true;
  const inHead = await runGit(root, ['rev-parse', '-q', '--verify', `HEAD:./${path}`]);
  return inHead.code === 0;
}

/**
 * Every changed file must exist, or be a file git tracks that the task deleted. A path that is
 * neither is `E_NOT_FOUND` naming it (never a silent "nothing was checked"); a directory is
 * `E_INVALID_ARGUMENT` (committing it would take whatever else lies in it).
 */
export async function requireChangedFiles(root: string, changed: readonly string[]): Promise<void> {
  const missing: string[] = [];
  for (const path of changed) {
    let isDirectory = false;
    try {
      isDirectory = lstatSync(join(root, path)).isDirectory();
    } catch {
      if (!(await tracked(root, path))) missing.push(path);
      continue;
    }
    if (isDirectory) {
      const message = `changed_files names the directory ${path}: list the files in it that the task changed`;
      throw new AgentgovError('E_INVALID_ARGUMENT', message, { path });
    }
  }
  if (missing.length === 0) return;
  throw new AgentgovError(
    'E_NOT_FOUND',
    `changed_files names ${missing.length === 1 ? 'a file that does' : 'files that do'} not exist: ` +
      `${missing.join(', ')} (not in the work tree, and not a file git tracks, so not a deletion either). ` +
      'Nothing was linted, tested or committed.',
    { missing },
  );
}

/**
 * Before a checkpoint that commits runs anything: the repository must be a git work tree, and git
 * must know who commits; otherwise `E_COMMIT_FAILED` in git's own words ("Author identity unknown
 * … Please tell me who you are").
 */
export async function requireCommitPossible(root: string, changed: readonly string[]): Promise<void> {
  const inside = await runGit(root, ['rev-parse', '--is-inside-work-tree']);
  if (inside.code !== 0 || inside.stdout.trim() !== 'true') {
    const said = gitSays(inside.stderr) || inside.stdout.trim();
    throw new AgentgovError(
      'E_COMMIT_FAILED',
      `the repository is not a git work tree (git says: ${said}), so there is nothing to commit to; nothing was ` +
        'linted, tested or committed. Run checkpoint without commit_message to check the change, or make the ' +
        'directory a git repository (`git init`).',
      { reason: 'not_a_work_tree' },
    );
  }
  for (const who of ['GIT_AUTHOR_IDENT', 'GIT_COMMITTER_IDENT']) {
    const run = await runGit(root, ['var', who]);
    if (run.code === 0) continue;
    throw new AgentgovError(
      'E_COMMIT_FAILED',
      'git has no identity to commit with, so nothing was linted, tested or committed. ' +
        `git says: ${gitSays(run.stderr)}. ` +
        'Set one with `git config user.name "Your Name"` and `git config user.email you@example.com` ' +
        '(add --global for every repository), then run checkpoint again.',
      { reason: 'identity', output: run.stderr.trim() },
    );
  }
  // an untracked file git ignores cannot be committed without forcing it: say so now, not after the tests
  const input = changed.map((f) => `${f}\0`).join('');
  const ignored = await runGit(root, ['check-ignore', '--stdin', '-z', '-v'], { input });
  // -z -v: source, line number, pattern, path, each NUL-terminated
  const fields = ignored.stdout.split('\0');
  const rules: string[] = [];
  for (let i = 0; i + 3 < fields.length; i += 4) {
    const [source, line, pattern, path] = fields.slice(i, i + 4);
    rules.push(`${path} (${source}:${line} ${pattern})`);
  }
  if (ignored.code === 0 && rules.length) {
    throw new AgentgovError(
      'E_COMMIT_FAILED',
      `changed_files names ${rules.length === 1 ? 'a file' : 'files'} git ignores, so the commit cannot hold ` +
        `${rules.length === 1 ? 'it' : 'them'}: ${rules.join(', ')}. Nothing was linted, tested or committed. ` +
        'Leave it out of changed_files, or track it yourself (`git add -f`) if it belongs in the repository.',
      { reason: 'ignored', ignored: rules },
    );
  }
}
