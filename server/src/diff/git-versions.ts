import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentgovError } from '@agentgov/core';
import { simpleGit, type SimpleGit } from 'simple-git';

/** One changed file between two versions: either side is null when the file is added or removed. */
export interface FileChange {
  oldPath: string | null;
  newPath: string | null;
  oldText: string | null;
  newText: string | null;
}

/** Resolves a ref to a commit sha; an unknown ref is `E_NOT_FOUND`. */
export async function resolveRef(git: SimpleGit, ref: string): Promise<string> {
  if (!/^[\w./@^~{}-]+$/.test(ref) || ref.startsWith('-')) {
    throw new AgentgovError('E_INVALID_ARGUMENT', `'${ref}' is not a git ref`, { argument: 'ref', ref });
  }
  // With --quiet, git exits non-zero without output for an unknown ref; simple-git then resolves with ''.
  const sha = await git.raw(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).then(
    (out) => out.trim(),
    () => '',
  );
  if (!/^[0-9a-f]{40,64}$/.test(sha)) {
    const commits = await git.raw(['rev-list', '-n', '1', '--all']).then(
      (out) => out.trim(),
      () => '',
    );
    if (!commits) {
      const remediation =
        'The repository has no commits yet, so no git ref exists: commit first, or ' +
        'compare index epochs (base: "epoch:N").';
      throw new AgentgovError(
        'E_NOT_FOUND',
        `unknown git ref '${ref}': the repository has no commits yet`,
        { ref, commits: 0 },
        { remediation },
      );
    }
    const known = await git
      .raw([
        'for-each-ref',
        '--count=8',
        '--sort=-committerdate',
        '--format=%(refname:short)',
        'refs/heads',
        'refs/tags',
      ])
      .then(
        (out) => out.split('\n').filter(Boolean),
        () => [],
      );
    const remediation =
      `'${ref}' is not a branch, tag or commit of this repository` +
      `${known.length ? ` (recent refs: ${known.join(', ')})` : ''}. ` +
      ('List refs with `git branch -a` and `git tag`, commits with `git log --oneline`; ' +
        'HEAD~N counts back from HEAD; base "epoch:N" compares index epochs instead.');
    throw new AgentgovError('E_NOT_FOUND', `unknown git ref '${ref}'`, { ref, known_refs: known }, { remediation });
  }
  return sha;
}

/**
 * Files that differ between `base` (a commit) and `target` (a commit, or the working tree when
 * null), renames detected by git, limited to `paths` when given. Untracked, non-ignored files
 * count as added in the working tree.
 */
export async function changedFiles(
  root: string,
  base: string,
  target: string | null,
  paths: string[],
): Promise<FileChange[]> {
  const git = simpleGit(root);
  const isRepo = await git.checkIsRepo().catch(() => false);
  if (!isRepo)
    throw new AgentgovError(
      'E_NOT_A_GIT_REPOSITORY',
      `${base} cannot be compared: the repository is not a git checkout`,
      { base },
    );
  const baseSha = await resolveRef(git, base);
  const targetSha = target === null ? null : await resolveRef(git, target);
  const limit = paths.length > 0 ? ['--', ...paths] : [];
  const raw = await git.raw([
    'diff',
    '--name-status',
    '-M',
    '-z',
    baseSha,
    ...(targetSha ? [targetSha] : []),
    ...limit,
  ]);
  const fields = raw.split('\0').filter((f) => f !== '');
  const pairs: { oldPath: string | null; newPath: string | null }[] = [];
  for (let i = 0; i < fields.length;) {
    const status = fields[i++] as string;
    if (status.startsWith('R') || status.startsWith('C')) {
      pairs.push({ oldPath: fields[i++] ?? null, newPath: fields[i++] ?? null });
    } else {
      const path = fields[i++] ?? null;
      pairs.push({ oldPath: status === 'A' ? null : path, newPath: status === 'D' ? null : path });
    }
  }
  if (targetSha === null) {
    const untracked = await git.raw(['ls-files', '--others', '--exclude-standard', '-z', ...limit]);
    for (const path of untracked.split('\0').filter(Boolean)) pairs.push({ oldPath: null, newPath: path });
  }
  const show = async (sha: string, path: string) => git.show([`${sha}:${path}`]).catch(() => null);
  return Promise.all(
    pairs.map(async (p) => ({
      ...p,
      oldText: p.oldPath ? await show(baseSha, p.oldPath) : null,
      newText: p.newPath
        ? targetSha
          ? await show(targetSha, p.newPath)
          : await readFile(join(root, p.newPath), 'utf8').catch(() => null)
        : null,
    })),
  );
}
