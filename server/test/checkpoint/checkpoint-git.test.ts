import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { writeTree } from '@agentgov/core/testing';
import { git, repoWithOrigin, resetTo, ServeClient, type Structured } from './serve-client.js';

/**
 * What `checkpoint` commits, against real git: real repositories (under /var/tmp, not only /tmp),
 * real hooks of every common shape, a real bare origin. The repository has no linter configuration
 * and no test runner, so the checks do not apply and every case is about git.
 */
const FILES = {
  'README.md': '# notes\n',
  'notes/a.txt': 'alpha\n',
  'notes/b.txt': 'beta\n',
  'notes/c.txt': 'gamma\n',
};

type Commit = { committed: boolean; sha?: string; files: string[]; hook_modified: string[]; reason?: string };
type Answer = { ok: boolean; verdict: string; commit: Commit | null; push: { pushed: boolean } | null };
const answer = (data: Structured) => data as unknown as Answer;

/** Silent: strips trailing blanks from the staged .txt files and exits 1 when it changed one, printing nothing. */
const SILENT_FIXER_EXIT_1 = `#!/bin/sh
changed=0
for f in $(git diff --cached --name-only --diff-filter=AM -- '*.txt'); do
  if grep -q '[[:space:]]$' "$f"; then sed -i 's/[[:space:]]*$//' "$f"; changed=1; fi
done
exit $changed
`;

/** A shell that is not the hook's parent's direct child: `sleep` in the background, its pid written down. */
const HANGING = `#!/bin/sh
sleep 300 &
echo $! > "$(git rev-parse --git-dir)/sleep.pid"
wait
`;

/** husky v9's layout: core.hooksPath is .husky/_, whose stub runs the project's .husky/pre-commit with sh -e. */
const HUSKY = {
  '.husky/_/pre-commit': '#!/bin/sh\nexec sh -e "$(dirname "$(dirname "$0")")/pre-commit" "$@"\n',
  // lint-staged's shape: fix the staged files, then `git add` them from inside the hook
  '.husky/pre-commit': `for f in $(git diff --cached --name-only --diff-filter=ACM -- '*.txt'); do
  sed -i 's/[[:space:]]*$//' "$f"
  git add -- "$f"
done
`,
};

describe('checkpoint over MCP: commits exactly what it was given, judged by git itself', function () {
  this.timeout(300_000);
  let serve: ServeClient;
  let base: string;
  let repo: string;
  let origin: string;
  const head = () => git(repo, 'rev-parse', 'HEAD');
  const staged = () => git(repo, 'diff', '--cached', '--name-only').split('\n').filter(Boolean);
  const subject = (ref: string) => git(repo, 'log', '-1', '--format=%s', ref);
  const hook = (name: string, body: string) => {
    writeTree(repo, { [`.git/hooks/${name}`]: body });
    chmodSync(join(repo, '.git/hooks', name), 0o755);
  };

  before(async () => {
    base = mkdtempSync('/var/tmp/agentgov-checkpoint-git-');
    ({ repo, origin } = repoWithOrigin(FILES, '*.txt', base));
    // the shared fixture's own hook is not wanted here: each case installs the hook it is about
    unlinkSync(join(repo, '.git/hooks/pre-commit'));
    serve = await ServeClient.start(repo, { GIT_CONFIG_NOSYSTEM: '1' });
  });
  after(async () => {
    await serve?.close();
    if (base) rmSync(base, { recursive: true, force: true });
  });
  beforeEach(() => {
    for (const op of [
      ['merge', '--abort'],
      ['rebase', '--abort'],
      ['cherry-pick', '--abort'],
      ['bisect', 'reset'],
    ]) {
      try {
        git(repo, ...op);
      } catch {
        // not in progress
      }
    }
    const hooks = join(repo, '.git/hooks');
    for (const f of readdirSync(hooks)) if (!f.endsWith('.sample')) rmSync(join(hooks, f));
    for (const key of ['core.hooksPath', 'commit.gpgsign', 'gpg.program', 'user.useConfigOnly']) {
      try {
        git(repo, 'config', '--unset', key);
      } catch {
        // not set
      }
    }
    git(repo, 'config', 'user.name', 'Checkpoint Test');
    git(repo, 'config', 'user.email', 'checkpoint@example.invalid');
    rmSync(join(repo, '.husky'), { recursive: true, force: true });
    resetTo(repo, 'origin/main');
  });

  it('a silent pre-commit hook that exits 1 is a refusal: HEAD stays, nothing is claimed', async () => {
    hook('pre-commit', '#!/bin/sh\nexit 1\n');
    const before = head();
    writeTree(repo, { 'notes/a.txt': 'alpha, edited\n' });
    const { data, text } = await serve.call('checkpoint', { changed_files: ['notes/a.txt'], commit_message: 'edit a' });
    expect(data.error?.code, text).to.equal('E_COMMIT_FAILED');
    const refusal = /pre-commit hook \(\.git\/hooks\/pre-commit\) refused the commit: it exited 1 /;
    expect(data.error?.message).to.match(refusal);
    expect(text).to.not.match(/committed [0-9a-f]{12}/);
    expect(head()).to.equal(before);
    expect(staged(), 'the index is as it was').to.deep.equal([]);
    expect(readFileSync(join(repo, 'notes/a.txt'), 'utf8')).to.equal('alpha, edited\n');
  });

  it('a silent hook that fixes a file and exits 1: one new commit on top, the last commit untouched', async () => {
    hook('pre-commit', SILENT_FIXER_EXIT_1);
    const before = head();
    const beforeTree = git(repo, 'rev-parse', 'HEAD^{tree}');
    writeTree(repo, { 'notes/a.txt': 'alpha, edited   \n' });
    const { data, text } = await serve.call('checkpoint', { changed_files: ['notes/a.txt'], commit_message: 'edit a' });
    expect(data.error, text).to.equal(undefined);
    const { commit } = answer(data);
    expect(commit).to.include({ committed: true, sha: head() });
    expect(commit?.hook_modified).to.deep.equal(['notes/a.txt']);
    expect(git(repo, 'rev-parse', 'HEAD~1'), 'the parent is the old HEAD').to.equal(before);
    expect(git(repo, 'rev-parse', 'HEAD~1^{tree}'), 'the old commit was not amended').to.equal(beforeTree);
    expect(subject('HEAD')).to.equal('edit a');
    expect(subject('HEAD~1')).to.equal('initial');
    expect(git(repo, 'show', 'HEAD:notes/a.txt')).to.equal('alpha, edited');
    expect(git(repo, 'status', '--porcelain', '--', 'notes')).to.equal('');
  });

  it('a noisy hook that exits 1 is named, with its output; the index is restored', async () => {
    hook('pre-commit', '#!/bin/sh\necho "style: notes/a.txt needs a reviewer" >&2\nexit 3\n');
    const before = head();
    writeTree(repo, { 'notes/a.txt': 'alpha, edited\n' });
    const { data } = await serve.call('checkpoint', { changed_files: ['notes/a.txt'], commit_message: 'edit a' });
    expect(data.error?.code).to.equal('E_COMMIT_FAILED');
    expect(data.error?.message).to.match(/pre-commit hook .*refused the commit: it exited 3/);
    expect(data.error?.details['hook']).to.equal('pre-commit');
    expect(data.error?.details['output']).to.contain('style: notes/a.txt needs a reviewer');
    expect(head()).to.equal(before);
    expect(staged()).to.deep.equal([]);
  });

  it('a hook that fixes a file and exits 0: one commit holding the change and the fix', async () => {
    hook('pre-commit', SILENT_FIXER_EXIT_1.replace('exit $changed', 'exit 0'));
    const before = head();
    writeTree(repo, { 'notes/a.txt': 'alpha, edited \n' });
    const { data, text } = await serve.call('checkpoint', { changed_files: ['notes/a.txt'], commit_message: 'edit a' });
    expect(data.error, text).to.equal(undefined);
    expect(answer(data).commit).to.include({ committed: true, sha: head() });
    expect(answer(data).commit?.hook_modified).to.deep.equal(['notes/a.txt']);
    expect(git(repo, 'rev-parse', 'HEAD~1')).to.equal(before);
    expect(git(repo, 'show', 'HEAD:notes/a.txt')).to.equal('alpha, edited');
    expect(subject('HEAD~1')).to.equal('initial');
  });

  it('a commit-msg hook that refuses is named as the commit-msg hook', async () => {
    const jira = "grep -q '^JIRA-' \"$1\" && exit 0\necho 'the message must start with a JIRA key'\nexit 1\n";
    hook('commit-msg', `#!/bin/sh\n${jira}`);
    const before = head();
    writeTree(repo, { 'notes/a.txt': 'alpha, edited\n' });
    const { data } = await serve.call('checkpoint', { changed_files: ['notes/a.txt'], commit_message: 'edit a' });
    expect(data.error?.code).to.equal('E_COMMIT_FAILED');
    expect(data.error?.message).to.match(/commit-msg hook .*refused the commit/);
    expect(data.error?.message).to.not.contain('pre-commit');
    expect(data.error?.details['output']).to.contain('the message must start with a JIRA key');
    expect(head()).to.equal(before);
    const retry = await serve.call('checkpoint', { changed_files: ['notes/a.txt'], commit_message: 'JIRA-1 edit a' });
    expect(answer(retry.data).commit).to.include({ committed: true });
  });

  it("husky + lint-staged style hook (core.hooksPath): its fix is committed, the user's staged file not", async () => {
    writeTree(repo, HUSKY);
    chmodSync(join(repo, '.husky/_/pre-commit'), 0o755);
    git(repo, 'config', 'core.hooksPath', '.husky/_');
    writeTree(repo, { 'notes/c.txt': "gamma, the user's own   \n" });
    git(repo, 'add', 'notes/c.txt');
    const before = head();
    writeTree(repo, { 'notes/a.txt': 'alpha, edited  \n' });
    const { data, text } = await serve.call('checkpoint', { changed_files: ['notes/a.txt'], commit_message: 'edit a' });
    expect(data.error, text).to.equal(undefined);
    expect(answer(data).commit).to.include({ committed: true, sha: head() });
    expect(git(repo, 'rev-parse', 'HEAD~1')).to.equal(before);
    expect(git(repo, 'diff-tree', '--no-commit-id', '--name-only', '-r', 'HEAD')).to.equal('notes/a.txt');
    expect(git(repo, 'show', 'HEAD:notes/a.txt')).to.equal('alpha, edited');
    expect(staged(), "the user's staged file is still staged").to.deep.equal(['notes/c.txt']);
    const stagedC = execFileSync('git', ['-C', repo, 'show', ':notes/c.txt'], { encoding: 'utf8' });
    expect(stagedC, 'and the hook never saw it').to.equal("gamma, the user's own   \n");
    expect(git(repo, 'status', '--porcelain', '--', 'notes/a.txt')).to.equal('');
  });

  it('a file the user staged stays staged and uncommitted, and is not pushed', async () => {
    writeTree(repo, { 'notes/user.txt': 'work in progress\n', 'notes/b.txt': 'beta, staged by the user\n' });
    git(repo, 'add', 'notes/user.txt', 'notes/b.txt');
    const before = head();
    writeTree(repo, { 'notes/a.txt': 'alpha, edited by the agent\n' });
    const { data, text } = await serve.call('checkpoint', {
      changed_files: ['notes/a.txt'],
      commit_message: 'edit a',
      push: true,
    });
    expect(data.error, text).to.equal(undefined);
    const { commit, push } = answer(data);
    expect(commit).to.include({ committed: true, sha: head() });
    expect(commit?.files).to.deep.equal(['notes/a.txt']);
    expect(push).to.include({ pushed: true });
    expect(git(repo, 'rev-parse', 'HEAD~1')).to.equal(before);
    expect(git(repo, 'diff-tree', '--no-commit-id', '--name-only', '-r', 'HEAD')).to.equal('notes/a.txt');
    expect(staged()).to.deep.equal(['notes/b.txt', 'notes/user.txt']);
    expect(git(repo, 'show', ':notes/b.txt')).to.equal('beta, staged by the user');
    expect(git(repo, 'status', '--porcelain', '--', 'notes/a.txt'), 'the committed file is clean').to.equal('');
    expect(git(origin, 'rev-parse', 'main')).to.equal(head());
    expect(git(origin, 'ls-tree', '--name-only', '-r', 'main')).to.not.contain('notes/user.txt');
    expect(git(origin, 'show', 'main:notes/b.txt')).to.equal('beta');
  });

  it('a hook that rewrites a file outside changed_files does not get it committed', async () => {
    hook('pre-commit', "#!/bin/sh\necho 'touched by the hook' >> README.md\nexit 1\n");
    const before = head();
    writeTree(repo, { 'notes/a.txt': 'alpha, edited\n' });
    const { data } = await serve.call('checkpoint', { changed_files: ['notes/a.txt'], commit_message: 'edit a' });
    expect(data.error?.code, 'it fixed nothing among the changed files: no retry').to.equal('E_COMMIT_FAILED');
    expect(head()).to.equal(before);
    hook('pre-commit', "#!/bin/sh\necho 'touched by the hook' >> README.md\nexit 0\n");
    const args = { changed_files: ['notes/a.txt'], commit_message: 'edit a' };
    const { data: passed, text } = await serve.call('checkpoint', args);
    expect(passed.error, text).to.equal(undefined);
    expect(answer(passed).commit?.hook_modified).to.deep.equal([]);
    expect(git(repo, 'diff-tree', '--no-commit-id', '--name-only', '-r', 'HEAD')).to.equal('notes/a.txt');
    expect(git(repo, 'status', '--porcelain', '--', 'README.md')).to.equal('M README.md');
  });

  it('a silent pre-push hook that exits 1: E_PUSH_FAILED naming it, the local commit stays', async () => {
    hook('pre-push', '#!/bin/sh\nexit 1\n');
    const remote = git(origin, 'rev-parse', 'main');
    writeTree(repo, { 'notes/a.txt': 'alpha, edited\n' });
    const args = { changed_files: ['notes/a.txt'], commit_message: 'edit a', push: true };
    const { data } = await serve.call('checkpoint', args);
    expect(data.error?.code).to.equal('E_PUSH_FAILED');
    const refusal = /^committed [0-9a-f]{12} locally, but did not push: the pre-push hook .*exited 1/;
    expect(data.error?.message).to.match(refusal);
    expect(data.error?.details['commit']).to.equal(head());
    expect(subject('HEAD')).to.equal('edit a');
    expect(git(origin, 'rev-parse', 'main'), 'origin did not move').to.equal(remote);
  });

  it('origin\'s pre-receive hook declining: E_PUSH_FAILED with origin\'s reason, not "it has commits"', async () => {
    writeTree(origin, { 'hooks/pre-receive': '#!/bin/sh\necho "main is protected" >&2\nexit 1\n' });
    chmodSync(join(origin, 'hooks/pre-receive'), 0o755);
    try {
      writeTree(repo, { 'notes/a.txt': 'alpha, edited\n' });
      const args = { changed_files: ['notes/a.txt'], commit_message: 'edit a', push: true };
      const { data } = await serve.call('checkpoint', args);
      expect(data.error?.code).to.equal('E_PUSH_FAILED');
      expect(data.error?.message).to.match(/did not push: origin refused the push: .*pre-receive hook declined/);
      expect(data.error?.details['git']).to.contain('main is protected');
    } finally {
      rmSync(join(origin, 'hooks/pre-receive'));
    }
  });

  it("no git identity: git's own reason, no hook blamed, nothing staged", async () => {
    git(repo, 'config', '--unset', 'user.name');
    git(repo, 'config', '--unset', 'user.email');
    git(repo, 'config', 'user.useConfigOnly', 'true');
    const before = head();
    writeTree(repo, { 'notes/a.txt': 'alpha, edited\n' });
    const { data } = await serve.call('checkpoint', { changed_files: ['notes/a.txt'], commit_message: 'edit a' });
    expect(data.error?.code).to.equal('E_COMMIT_FAILED');
    expect(data.error?.message).to.match(/identity/i);
    expect(data.error?.message).to.contain('user.email');
    expect(data.error?.message).to.not.match(/hook/);
    expect(head()).to.equal(before);
    expect(staged()).to.deep.equal([]);
  });

  it('a signing failure is named as one', async () => {
    git(repo, 'config', 'commit.gpgsign', 'true');
    git(repo, 'config', 'gpg.program', 'false');
    const before = head();
    writeTree(repo, { 'notes/a.txt': 'alpha, edited\n' });
    const { data } = await serve.call('checkpoint', { changed_files: ['notes/a.txt'], commit_message: 'edit a' });
    expect(data.error?.code).to.equal('E_COMMIT_FAILED');
    expect(data.error?.message).to.match(/sign/);
    expect(data.error?.message).to.not.match(/hook/);
    expect(head()).to.equal(before);
    expect(staged()).to.deep.equal([]);
  });

  it('a merge, rebase, cherry-pick or bisect in progress is refused before anything runs', async () => {
    const conflict = () => {
      git(repo, 'checkout', '-q', '-B', 'other', 'origin/main');
      writeTree(repo, { 'notes/a.txt': 'alpha from other\n' });
      git(repo, 'commit', '-q', '-am', 'other');
      git(repo, 'checkout', '-q', 'main');
      writeTree(repo, { 'notes/a.txt': 'alpha from main\n' });
      git(repo, 'commit', '-q', '-am', 'main');
    };
    const attempts: [string, string[], RegExp][] = [
      ['merge', ['merge', 'other'], /merge is in progress.*git merge --abort/],
      ['rebase', ['rebase', 'other'], /rebase is in progress.*git rebase --abort/],
      ['cherry-pick', ['cherry-pick', 'other'], /cherry-pick is in progress.*git cherry-pick --abort/],
    ];
    for (const [name, start, message] of attempts) {
      resetTo(repo, 'origin/main');
      conflict();
      expect(() => git(repo, ...start), `${name} stops on a conflict`).to.throw();
      const conflicted = readFileSync(join(repo, 'notes/a.txt'), 'utf8');
      const before = head();
      const { data } = await serve.call('checkpoint', { changed_files: ['notes/a.txt'], commit_message: 'resolve' });
      expect(data.error?.code, name).to.equal('E_GIT_OPERATION_IN_PROGRESS');
      expect(data.error?.message, name).to.match(message);
      expect(head(), name).to.equal(before);
      expect(readFileSync(join(repo, 'notes/a.txt'), 'utf8'), `${name}: the file is untouched`).to.equal(conflicted);
      git(repo, name, '--abort');
    }
    git(repo, 'bisect', 'start');
    const { data } = await serve.call('checkpoint', { changed_files: ['notes/a.txt'], lint: false });
    expect(data.error?.code).to.equal('E_GIT_OPERATION_IN_PROGRESS');
    expect(data.error?.message).to.match(/bisect is in progress.*git bisect reset/);
    git(repo, 'bisect', 'reset');
  });

  it('a changed file that does not exist is an error naming it; a deleted tracked file is committed', async () => {
    const before = head();
    writeTree(repo, { 'notes/a.txt': 'alpha, edited\n' });
    const both = ['notes/a.txt', 'notes/nope.txt'];
    const missing = await serve.call('checkpoint', { changed_files: both, commit_message: 'x' });
    expect(missing.data.error?.code).to.equal('E_NOT_FOUND');
    expect(missing.data.error?.message).to.contain('notes/nope.txt');
    expect(missing.data.error?.message).to.not.contain('notes/a.txt');
    expect(missing.text).to.not.match(/PASS/);
    expect(head()).to.equal(before);

    rmSync(join(repo, 'notes/b.txt'));
    git(repo, 'rm', '-q', 'notes/c.txt'); // gone from the index too: known from HEAD
    writeTree(repo, { 'notes/d.txt': 'delta, a new file\n' });
    const changed = ['notes/b.txt', 'notes/c.txt', 'notes/d.txt'];
    const { data, text } = await serve.call('checkpoint', { changed_files: changed, commit_message: 'b, c become d' });
    expect(data.error, text).to.equal(undefined);
    expect(answer(data).commit).to.include({ committed: true });
    const statuses = git(repo, 'diff-tree', '--no-commit-id', '--name-status', '-r', 'HEAD');
    expect(statuses).to.equal('D\tnotes/b.txt\nD\tnotes/c.txt\nA\tnotes/d.txt');
    expect(git(repo, 'status', '--porcelain', '--', 'notes'), 'the index caught up').to.equal('M notes/a.txt');
  });

  it('a changed file git ignores is refused before anything runs, naming the rule', async () => {
    writeTree(repo, { '.gitignore': 'build/\n', 'build/out.txt': 'generated\n', 'notes/a.txt': 'alpha, edited\n' });
    git(repo, 'add', '.gitignore');
    git(repo, 'commit', '-q', '-m', 'ignore build');
    const before = head();
    const args = { changed_files: ['notes/a.txt', 'build/out.txt'], commit_message: 'edit a' };
    const { data } = await serve.call('checkpoint', args);
    expect(data.error?.code).to.equal('E_COMMIT_FAILED');
    expect(data.error?.message).to.contain('build/out.txt (.gitignore:1 build/)');
    expect(head()).to.equal(before);
    expect(staged()).to.deep.equal([]);
  });

  it('a run where no linter and no test applied says NOTHING CHECKED, never PASS', async () => {
    writeTree(repo, { 'notes/a.txt': 'alpha, edited\n' });
    const { data, text } = await serve.call('checkpoint', { changed_files: ['notes/a.txt'] });
    expect(data.error).to.equal(undefined);
    expect(answer(data).verdict).to.equal('NOTHING CHECKED');
    expect(text.split('\n')[0]).to.match(/^NOTHING CHECKED — /);
    expect(text).to.not.match(/^PASS/m);
    const unchecked = { changed_files: ['notes/a.txt'], lint: false, tests: false, commit_message: 'edit a' };
    const off = await serve.call('checkpoint', unchecked);
    expect(off.text.split('\n')[0]).to.match(/^NOTHING CHECKED — .*committed [0-9a-f]{12}/);
    expect(answer(off.data).commit).to.include({ committed: true, sha: head() });
  });

  it('changed files identical to HEAD: nothing to commit, said so, HEAD stays', async () => {
    const before = head();
    const { data } = await serve.call('checkpoint', { changed_files: ['notes/a.txt'], commit_message: 'nothing' });
    expect(data.error).to.equal(undefined);
    expect(answer(data).commit).to.include({ committed: false });
    expect(answer(data).commit?.reason).to.match(/nothing to commit/);
    expect(head()).to.equal(before);
  });
});

describe('checkpoint over MCP: a hung hook meets its deadline', function () {
  this.timeout(120_000);
  let serve: ServeClient;
  let repo: string;

  before(async () => {
    ({ repo } = repoWithOrigin(FILES, '*.txt'));
    writeTree(repo, { '.git/hooks/pre-commit': HANGING });
    chmodSync(join(repo, '.git/hooks/pre-commit'), 0o755);
    serve = await ServeClient.start(repo, {}, { config: 'server:\n  checkpoint:\n    hook_timeout_s: 2\n' });
  });
  after(async () => {
    await serve?.close();
  });

  it('is killed with its process group after server.checkpoint.hook_timeout_s, and reported', async () => {
    const before = git(repo, 'rev-parse', 'HEAD');
    writeTree(repo, { 'notes/a.txt': 'alpha, edited\n' });
    const { data } = await serve.call('checkpoint', { changed_files: ['notes/a.txt'], commit_message: 'edit a' });
    expect(data.error?.code).to.equal('E_COMMIT_FAILED');
    expect(data.error?.message).to.match(/pre-commit hook .*did not finish within 2 s/);
    expect(git(repo, 'rev-parse', 'HEAD')).to.equal(before);
    const pid = Number(readFileSync(join(repo, '.git/sleep.pid'), 'utf8'));
    expect(alive(pid), `the hook's child ${pid} was killed`).to.equal(false);
    expect(git(repo, 'diff', '--cached', '--name-only')).to.equal('');
    expect(existsSync(join(repo, '.git/index.lock')), 'no lock is left behind').to.equal(false);
    const scratch = readdirSync(join(repo, '.git')).filter((f) => f.startsWith('agentgov-'));
    expect(scratch, 'no temporary files left').to.deep.equal([]);
  });
});

describe('checkpoint over MCP: serving a package inside a larger git work tree', function () {
  this.timeout(120_000);
  let serve: ServeClient;
  let repo: string;

  before(async () => {
    ({ repo } = repoWithOrigin({ ...FILES, 'pkg/src/x.txt': 'x\n', 'pkg/README.md': '# pkg\n' }, '*.txt'));
    unlinkSync(join(repo, '.git/hooks/pre-commit'));
    serve = await ServeClient.start(join(repo, 'pkg'));
  });
  after(async () => {
    await serve?.close();
  });

  it('takes changed_files relative to the package and commits exactly them', async () => {
    const before = git(repo, 'rev-parse', 'HEAD');
    writeTree(repo, { 'notes/a.txt': 'outside the package, staged by the user\n', 'pkg/src/x.txt': 'x, edited\n' });
    git(repo, 'add', 'notes/a.txt');
    git(repo, 'rm', '-q', 'pkg/README.md');
    const changed = ['src/x.txt', 'README.md'];
    const { data, text } = await serve.call('checkpoint', { changed_files: changed, commit_message: 'pkg: edit x' });
    expect(data.error, text).to.equal(undefined);
    expect(answer(data).commit?.files).to.deep.equal(['README.md', 'src/x.txt']);
    expect(git(repo, 'rev-parse', 'HEAD~1')).to.equal(before);
    const statuses = git(repo, 'diff-tree', '--no-commit-id', '--name-status', '-r', 'HEAD');
    expect(statuses).to.equal('D\tpkg/README.md\nM\tpkg/src/x.txt');
    expect(git(repo, 'diff', '--cached', '--name-only')).to.equal('notes/a.txt');
  });
});

describe('checkpoint over MCP: a directory that is not a git work tree', function () {
  this.timeout(120_000);
  let serve: ServeClient;
  let dir: string;

  before(async () => {
    dir = mkdtempSync('/var/tmp/agentgov-checkpoint-plain-');
    writeTree(dir, { 'notes/a.txt': 'alpha\n' });
    serve = await ServeClient.start(dir, { GIT_CEILING_DIRECTORIES: '/var/tmp' });
  });
  after(async () => {
    await serve?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('checks without commit_message; with it, E_COMMIT_FAILED before anything runs', async () => {
    const checked = await serve.call('checkpoint', { changed_files: ['notes/a.txt'] });
    expect(checked.data.error).to.equal(undefined);
    expect(answer(checked.data).verdict).to.equal('NOTHING CHECKED');
    const { data } = await serve.call('checkpoint', { changed_files: ['notes/a.txt'], commit_message: 'x' });
    expect(data.error?.code).to.equal('E_COMMIT_FAILED');
    expect(data.error?.message).to.match(/^the repository is not a git work tree/);
    const missing = await serve.call('checkpoint', { changed_files: ['notes/nope.txt'] });
    expect(missing.data.error?.code).to.equal('E_NOT_FOUND');
  });
});

/** A process that exists and is not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
