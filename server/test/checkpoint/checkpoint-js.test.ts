import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { writeTree } from '@agentgov/core/testing';
import { advanceOrigin, git, repoWithOrigin, resetTo, ServeClient, type Structured } from './serve-client.js';

const require = createRequire(import.meta.url);

/** A small ESM project: eslint (flat config), mocha; format.js imports math.js, so format.test.js is one hop farther from math.js than math.test.js. */
const PROJECT = {
  'package.json': JSON.stringify(
    { name: 'demo', type: 'module', scripts: { test: 'mocha' }, devDependencies: { mocha: '*', eslint: '*' } },
    null,
    2,
  ),
  '.mocharc.json': JSON.stringify({ spec: 'test/**/*.test.js' }),
  '.gitignore': 'node_modules/\n',
  'eslint.config.mjs':
    "export default [{ files: ['**/*.js', '**/*.mjs'], languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { describe: 'readonly', it: 'readonly' } }, rules: { 'prefer-const': 'error', 'no-undef': 'error' } }];\n",
  'src/math.js': 'export function add(a, b) {\n  return a + b;\n}\n',
  // format.js imports math.js without calling add: format.test.js is one import hop away but its coverage never runs add
  'src/format.js':
    "import { add } from './math.js';\n\nexport { add as plus };\n\nexport function total(xs) {\n  return xs.reduce((a, b) => a + b, 0).toFixed(2);\n}\n",
  'test/math.test.js':
    "import assert from 'node:assert/strict';\nimport { add } from '../src/math.js';\n\ndescribe('add', () => {\n  it('adds two numbers', () => {\n    assert.equal(add(2, 3), 5);\n  });\n  it('adds negatives', () => {\n    assert.equal(add(-2, -3), -5);\n  });\n});\n",
  'test/format.test.js':
    "import assert from 'node:assert/strict';\nimport { total } from '../src/format.js';\n\ndescribe('total', () => {\n  it('sums and formats', () => {\n    assert.equal(total([1, 2]), '3.00');\n  });\n});\n",
};

type Lint = {
  errors: number;
  problems: string[];
  fixed_files: string[];
  more: number;
  by_rule?: Record<string, number>;
  linters: { name: string; status: string; reason?: string }[];
};
type Hop = {
  distance: number;
  files: string[];
  status: string;
  passed: number;
  failed: number;
  commands: string[];
  reason?: string;
};
type Tests = {
  selection: string;
  hops: Hop[];
  passed: number;
  failed: number;
  failures: { id: string; message: string; stack: string[] }[];
  cached: { used: number; tests?: { id: string; status: string; age_s: number }[] };
};
type Commit = { committed: boolean; sha?: string; files: string[]; hook_modified: string[]; reason?: string };

function parts(data: Structured): {
  ok: boolean;
  lint: Lint;
  tests: Tests;
  commit: Commit | null;
  push: { pushed: boolean; branch: string } | null;
} {
  return data as never;
}

/** Links the monorepo's own eslint and mocha into the project, as `npm install` would. */
function linkDevDependencies(repo: string): void {
  mkdirSync(join(repo, 'node_modules'), { recursive: true });
  for (const name of ['mocha', 'eslint'])
    symlinkSync(dirname(require.resolve(`${name}/package.json`)), join(repo, 'node_modules', name), 'dir');
}

describe('checkpoint over MCP: eslint + mocha, a pre-commit hook and a bare origin', function () {
  this.timeout(300_000);
  let serve: ServeClient;
  let repo: string;
  let origin: string;
  const head = () => git(repo, 'rev-parse', 'HEAD');
  const hookRuns = () =>
    existsSync(join(repo, '.git/hook-marker'))
      ? readFileSync(join(repo, '.git/hook-marker'), 'utf8').split('\n').filter(Boolean).length
      : 0;

  before(async () => {
    ({ repo, origin } = repoWithOrigin(PROJECT, 'src/*.js'));
    linkDevDependencies(repo);
    serve = await ServeClient.start(repo);
  });
  after(async () => {
    await serve?.close();
  });
  beforeEach(() => resetTo(repo, 'origin/main'));

  it('a lint error it cannot fix blocks the commit, reported as path:line:col rule message', async () => {
    writeTree(repo, { 'src/math.js': 'export function add(a, b) {\n  return a + b + offset;\n}\n' });
    const before = head();
    const { data, text } = await serve.call('checkpoint', {
      changed_files: ['src/math.js'],
      commit_message: 'add offset',
    });
    const { ok, lint, commit } = parts(data);
    expect(data.error, serve.stderr).to.equal(undefined);
    expect(ok).to.equal(false);
    expect(lint.problems).to.deep.equal(["src/math.js:2:18 no-undef 'offset' is not defined."]);
    expect(commit).to.include({ committed: false });
    expect(head()).to.equal(before);
    expect(text.split('\n')[0]).to.match(/^FAIL — lint: 1 error/);
  });

  it('an auto-fixable problem is fixed, listed, and committed with the change', async () => {
    const marks = hookRuns();
    writeTree(repo, { 'src/math.js': 'export function add(a, b) {\n  let sum = a + b;\n  return sum;\n}\n' });
    const { data } = await serve.call('checkpoint', {
      changed_files: ['src/math.js'],
      commit_message: 'add: name the sum',
    });
    const { ok, lint, commit } = parts(data);
    expect(ok, JSON.stringify(data)).to.equal(true);
    expect(lint.fixed_files).to.deep.equal(['src/math.js']);
    expect(lint.errors).to.equal(0);
    expect(commit?.committed).to.equal(true);
    expect(git(repo, 'show', 'HEAD:src/math.js')).to.contain('const sum = a + b;');
    expect(hookRuns(), 'the pre-commit hook ran').to.be.greaterThan(marks);
  });

  it('a lint fix to a file outside changed_files is listed and left in the work tree, not committed', async () => {
    const before = head();
    const format =
      "import { add } from './math.js';\n\nexport { add as plus };\n\nexport function total(xs) {\n" +
      '  let sum = xs.reduce((a, b) => a + b, 0);\n  return sum.toFixed(2);\n}\n';
    writeTree(repo, { 'src/format.js': format, 'src/math.js': 'export function add(a, b) {\n  return b + a;\n}\n' });
    const args = { changed_files: ['src/math.js'], commit_message: 'add: commute' };
    const { data, text } = await serve.call('checkpoint', args);
    expect(data.error, text).to.equal(undefined);
    const { lint, commit } = parts(data);
    expect(lint.fixed_files).to.deep.equal(['src/format.js']);
    expect(commit).to.include({ committed: true, sha: head() });
    expect(commit?.files).to.deep.equal(['src/math.js']);
    expect((commit as { fixes_not_committed?: string[] }).fixes_not_committed).to.deep.equal(['src/format.js']);
    expect(git(repo, 'rev-parse', 'HEAD~1')).to.equal(before);
    expect(git(repo, 'status', '--porcelain', '--', 'src')).to.equal('M src/format.js');
    expect(readFileSync(join(repo, 'src/format.js'), 'utf8')).to.contain('const sum =');
    expect(text).to.contain('not committed (lint fixes outside changed_files, left in the work tree): src/format.js');
  });

  it('a failing direct test stops the run before farther hops, and nothing is committed', async () => {
    writeTree(repo, { 'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\n' });
    const before = head();
    const { data, text } = await serve.call('checkpoint', {
      changed_files: ['src/math.js'],
      commit_message: 'break add',
    });
    const { ok, tests, commit } = parts(data);
    expect(ok).to.equal(false);
    expect(tests.hops[0]).to.include({ distance: 0, status: 'failed' });
    expect(tests.hops[0]?.files).to.deep.equal(['test/math.test.js']);
    expect(tests.hops[1]).to.include({ distance: 1, status: 'not_run' });
    expect(tests.hops[1]?.files).to.deep.equal(['test/format.test.js']);
    expect(tests.failures.map((f) => f.id)).to.include('test/math.test.js > add > adds two numbers');
    expect(tests.failures[0]?.message).to.match(/5|-1/);
    expect(tests.failures[0]?.stack.join('\n')).to.contain('test/math.test.js');
    expect(commit).to.include({ committed: false });
    expect(head()).to.equal(before);
    expect(text).to.contain('✗ test/math.test.js > add > adds two numbers');
  });

  it("all green with commit_message: one commit holding the change and the pre-commit hook's fix", async () => {
    const marks = hookRuns();
    const before = head();
    writeTree(repo, {
      'src/math.js':
        'export function add(a, b) {   \n  return a + b;\n}\n\nexport function double(a) {\n  return add(a, a);  \n}\n',
    });
    const { data } = await serve.call('checkpoint', { changed_files: ['src/math.js'], commit_message: 'add double' });
    const { ok, tests, commit } = parts(data);
    expect(ok, JSON.stringify(data)).to.equal(true);
    // math.test.js at distance 0; format.test.js at distance 1 through the import graph, or at 0 once coverage shows
    // that loading format.js runs the changed declaration line (import time): where depends on the scheduler's progress
    expect(tests.hops[0]).to.include({ distance: 0, status: 'passed' });
    expect(tests.hops[0]?.files).to.include('test/math.test.js');
    expect(tests.hops.every((h) => h.status === 'passed' || h.status === 'empty')).to.equal(true);
    expect(tests.passed).to.equal(3);
    expect(commit?.committed).to.equal(true);
    expect(commit?.hook_modified).to.deep.equal(['src/math.js']);
    expect(commit?.sha).to.equal(head());
    expect(git(repo, 'rev-parse', 'HEAD~1')).to.equal(before);
    expect(git(repo, 'show', 'HEAD:src/math.js')).to.equal(
      'export function add(a, b) {\n  return a + b;\n}\n\nexport function double(a) {\n  return add(a, a);\n}',
    );
    expect(git(repo, 'status', '--porcelain', '--', 'src')).to.equal('');
    expect(hookRuns()).to.be.greaterThan(marks);
  });

  it('push lands the commit in the bare origin', async () => {
    writeTree(repo, { 'src/math.js': 'export function add(a, b) {\n  return b + a;\n}\n' });
    const { data } = await serve.call('checkpoint', {
      changed_files: ['src/math.js'],
      commit_message: 'add: commute',
      push: true,
    });
    const { ok, commit, push } = parts(data);
    expect(ok, JSON.stringify(data)).to.equal(true);
    expect(push).to.include({ pushed: true, branch: 'main' });
    expect(git(origin, 'rev-parse', 'main')).to.equal(commit?.sha);
    git(repo, 'fetch', '-q', 'origin');
  });

  it('test_filter reaches the runner: only the matching test runs', async () => {
    writeTree(repo, { 'src/math.js': 'export function add(a, b) {\n  return a + b + 0;\n}\n' });
    const { data } = await serve.call('checkpoint', {
      changed_files: ['src/math.js'],
      test_filter: 'negatives',
      autofix: false,
    });
    const { tests } = parts(data);
    expect(tests.hops[0]).to.include({ status: 'passed', passed: 1, failed: 0 });
    expect(tests.hops[0]?.commands.join(' ')).to.contain('negatives');
  });

  it('500 lint problems are summarised per rule with the first ones listed', async () => {
    const body = Array.from({ length: 250 }, (_, i) => `let v${i} = u${i};`).join('\n');
    writeTree(repo, { 'src/noisy.js': `${body}\nexport {};\n` });
    const { data, text } = await serve.call('checkpoint', {
      changed_files: ['src/noisy.js'],
      autofix: false,
      tests: false,
    });
    const { lint } = parts(data);
    expect(lint.errors).to.equal(500);
    expect(lint.problems).to.have.length(20);
    expect(lint.more).to.equal(480);
    expect(lint.by_rule).to.deep.equal({ 'no-undef': 250, 'prefer-const': 250 });
    expect(text.length).to.be.lessThan(4000);
  });

  it('a research-only session may check but not auto-fix or commit (E_READ_ONLY_SESSION)', async () => {
    const session = await ServeClient.start(repo);
    try {
      await session.call('recon', { task: 'where is add defined', read_only: true });
      const refused = await session.call('checkpoint', { changed_files: ['src/math.js'] });
      expect(refused.data.error?.code).to.equal('E_READ_ONLY_SESSION');
      const committing = await session.call('checkpoint', {
        changed_files: ['src/math.js'],
        autofix: false,
        commit_message: 'x',
      });
      expect(committing.data.error?.code).to.equal('E_READ_ONLY_SESSION');
      const checked = await session.call('checkpoint', { changed_files: ['src/math.js'], autofix: false });
      expect(checked.data.error).to.equal(undefined);
      expect(parts(checked.data).ok).to.equal(true);
    } finally {
      await session.close();
    }
  });

  it('a rejected push keeps the local commit and says so', async () => {
    advanceOrigin(origin, 'NOTES.md');
    writeTree(repo, { 'src/math.js': 'export function add(a, b) {\n  return a + b; // sum\n}\n' });
    const { data } = await serve.call('checkpoint', {
      changed_files: ['src/math.js'],
      commit_message: 'add: comment',
      push: true,
    });
    expect(data.error?.code).to.equal('E_PUSH_FAILED');
    expect(data.error?.message).to.match(
      /^committed [0-9a-f]{12} locally, but did not push: origin rejected the push.*The local commit stays/,
    );
    expect(data.error?.details['commit']).to.equal(head());
    expect(git(repo, 'log', '-1', '--format=%s')).to.equal('add: comment');
    expect(git(origin, 'log', '-1', '--format=%s', 'main')).to.equal('elsewhere');
  });
});

describe('checkpoint over MCP: background results from the test scheduler', function () {
  this.timeout(300_000);
  let serve: ServeClient;
  let repo: string;

  /** Waits until the scheduler is idle with every stored result still true (it re-runs what a change made stale). */
  async function settled(): Promise<void> {
    for (let attempt = 0; attempt < 600; attempt++) {
      const { data } = await serve.call('blast_radius', { changed_files: ['src/math.js'] });
      const impact = data['test_impact'] as
        { coverage: string; tests: number; scheduler: { state: string; queued_files: number } | null } | undefined;
      if (
        impact?.coverage === 'fresh' &&
        impact.tests > 0 &&
        impact.scheduler?.state === 'idle' &&
        impact.scheduler.queued_files === 0
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`the test scheduler did not settle\n${serve.stderr}`);
  }

  before(async () => {
    ({ repo } = repoWithOrigin(PROJECT, 'src/*.js'));
    linkDevDependencies(repo);
    serve = await ServeClient.start(repo);
  });
  after(async () => {
    await serve?.close();
  });

  it('reuses fresh results with their age, and runs live once a covered file changed', async () => {
    await serve.call('checkpoint', { changed_files: ['src/math.js'], lint: false }); // starts the scheduler
    writeTree(repo, { 'src/math.js': 'export function add(a, b) {\n  return b + a;\n}\n' });
    await settled(); // the scheduler re-ran the tests covering math.js on the new version
    const reused = parts((await serve.call('checkpoint', { changed_files: ['src/math.js'], lint: false })).data).tests;
    expect(reused.selection).to.equal('coverage');
    expect(reused.hops[0]).to.include({ distance: 0, status: 'passed', passed: 2 });
    expect(reused.hops[0]?.commands, 'nothing ran live at distance 0').to.deep.equal([]);
    expect(reused.cached.used).to.be.at.least(2);
    expect(reused.cached.tests?.map((t) => t.id)).to.include('test/math.test.js > add > adds two numbers');
    expect(reused.cached.tests?.every((t) => t.status === 'passed' && t.age_s >= 0)).to.equal(true);

    writeTree(repo, { 'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\n' });
    const live = parts(
      (await serve.call('checkpoint', { changed_files: ['src/math.js'], lint: false, tests: true })).data,
    ).tests;
    // coverage was taken at the first edit (neither HEAD nor now): the change is read against that version
    expect(live.selection, 'tests chosen from coverage taken at the earlier edit').to.equal('coverage');
    expect(live.hops[0]?.commands.length, 'distance 0 ran live').to.equal(1);
    expect(live.cached.tests?.map((t) => t.id) ?? []).to.not.include('test/math.test.js > add > adds two numbers');
    expect(live.failures.map((f) => f.id)).to.include('test/math.test.js > add > adds two numbers');
    expect(live.failures[0]?.message).to.not.match(/^\(cached\)/);
  });
});
