import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { writeTree } from '@agentgov/core/testing';
import {
  advanceOrigin,
  git,
  pythonToolsVenv,
  repoWithOrigin,
  resetTo,
  ServeClient,
  type Structured,
} from './serve-client.js';

/** A small Python project: ruff (pyflakes rules), pytest; fmt.py imports mathx.py, so test_fmt.py is one hop farther from mathx.py than test_mathx.py. */
const PROJECT = {
  'pyproject.toml':
    '[project]\nname = "demo"\nversion = "0.1.0"\n\n[tool.ruff.lint]\nselect = ["F"]\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
  '.gitignore': '.venv\n__pycache__/\n.pytest_cache/\n',
  'pkg/__init__.py': '',
  'pkg/mathx.py': 'def add(a, b):\n    return a + b\n',
  'pkg/fmt.py':
    'from pkg.mathx import add\n\n\ndef total(xs):\n    result = 0\n    for x in xs:\n        result = add(result, x)\n    return f"{result:.2f}"\n',
  'tests/test_mathx.py':
    'from pkg.mathx import add\n\n\ndef test_adds_two_numbers():\n    assert add(2, 3) == 5\n\n\ndef test_adds_negatives():\n    assert add(-2, -3) == -5\n',
  'tests/test_fmt.py':
    'from pkg.fmt import total\n\n\ndef test_sums_and_formats():\n    assert total([1, 2]) == "3.00"\n',
};

type Data = {
  ok: boolean;
  lint: { problems: string[]; fixed_files: string[]; linters: { name: string; status: string }[] };
  tests: {
    selection: string;
    hops: { distance: number; files: string[]; status: string; passed: number; commands: string[] }[];
    failures: { id: string; message: string; stack: string[] }[];
    cached: { used: number; tests?: { id: string; status: string; age_s: number }[] };
  };
  commit: { committed: boolean; sha?: string; hook_modified: string[] } | null;
  push: { pushed: boolean } | null;
};
const parts = (data: Structured) => data as unknown as Data;

describe('checkpoint over MCP: ruff + pytest, a pre-commit hook and a bare origin', function () {
  this.timeout(600_000);
  let serve: ServeClient;
  let repo: string;
  let origin: string;
  const head = () => git(repo, 'rev-parse', 'HEAD');

  before(async () => {
    // the real ruff and pytest, from the package registry into the test venv; the project uses it as its own .venv
    const venv = pythonToolsVenv();
    ({ repo, origin } = repoWithOrigin(PROJECT, 'pkg/*.py'));
    symlinkSync(venv, join(repo, '.venv'), 'dir');
    serve = await ServeClient.start(repo);
  });
  after(async () => {
    await serve?.close();
  });
  beforeEach(() => resetTo(repo, 'origin/main'));

  it('a lint error ruff cannot fix blocks the commit', async () => {
    writeTree(repo, { 'pkg/mathx.py': 'def add(a, b):\n    return a + b + offset\n' });
    const before = head();
    const { data } = await serve.call('checkpoint', { changed_files: ['pkg/mathx.py'], commit_message: 'add offset' });
    expect(data.error, serve.stderr).to.equal(undefined);
    const { ok, lint, commit } = parts(data);
    expect(ok).to.equal(false);
    expect(lint.linters.find((l) => l.name === 'ruff')?.status).to.equal('ran');
    expect(lint.problems).to.deep.equal(['pkg/mathx.py:2:20 F821 Undefined name `offset`']);
    expect(commit?.committed).to.equal(false);
    expect(head()).to.equal(before);
  });

  it('a failing direct test stops the run before farther hops; nothing is committed', async () => {
    writeTree(repo, { 'pkg/mathx.py': 'def add(a, b):\n    return a - b\n' });
    const before = head();
    const { data } = await serve.call('checkpoint', { changed_files: ['pkg/mathx.py'], commit_message: 'break add' });
    const { ok, tests, commit } = parts(data);
    expect(ok).to.equal(false);
    expect(tests.hops[0]).to.include({ distance: 0, status: 'failed' });
    expect(tests.hops[0]?.files).to.include('tests/test_mathx.py');
    expect(tests.hops[1]).to.include({ distance: 1, status: 'not_run' });
    expect(tests.failures.map((f) => f.id)).to.include('tests/test_mathx.py::test_adds_two_numbers');
    expect(commit?.committed).to.equal(false);
    expect(head()).to.equal(before);
  });

  it('auto-fix, all green, hook fix included, pushed: one commit in origin', async () => {
    const before = head();
    writeTree(repo, { 'pkg/mathx.py': 'import os\n\n\ndef add(a, b):   \n    return a + b\n' });
    const { data } = await serve.call('checkpoint', {
      changed_files: ['pkg/mathx.py'],
      commit_message: 'add: tidy',
      push: true,
    });
    const { ok, lint, tests, commit, push } = parts(data);
    expect(ok, JSON.stringify(data)).to.equal(true);
    expect(lint.fixed_files).to.deep.equal(['pkg/mathx.py']);
    // test_mathx.py at distance 0; test_fmt.py at distance 1 through the import graph, or at 0 once coverage shows that
    // importing fmt.py runs the changed `def` line (import time): where depends on the scheduler's progress
    expect(tests.hops[0]).to.include({ distance: 0, status: 'passed' });
    expect(tests.hops[0]?.files).to.include('tests/test_mathx.py');
    expect(tests.hops.every((h) => h.status === 'passed' || h.status === 'empty')).to.equal(true);
    expect(tests.hops.reduce((n, h) => n + h.passed, 0)).to.equal(3);
    expect(commit?.hook_modified).to.deep.equal(['pkg/mathx.py']);
    expect(git(repo, 'rev-parse', 'HEAD~1')).to.equal(before);
    expect(git(repo, 'show', 'HEAD:pkg/mathx.py')).to.equal('def add(a, b):\n    return a + b');
    expect(push?.pushed).to.equal(true);
    expect(git(origin, 'rev-parse', 'main')).to.equal(commit?.sha);
    git(repo, 'fetch', '-q', 'origin');
  });

  it('test_filter reaches pytest -k', async () => {
    writeTree(repo, { 'pkg/mathx.py': 'def add(a, b):\n    return b + a\n' });
    const { data } = await serve.call('checkpoint', {
      changed_files: ['pkg/mathx.py'],
      test_filter: 'negatives',
      autofix: false,
    });
    const { tests } = parts(data);
    expect(tests.hops[0]).to.include({ status: 'passed', passed: 1 });
    expect(tests.hops[0]?.commands.join(' ')).to.contain('negatives');
  });

  it('a rejected push keeps the local commit and says so', async () => {
    advanceOrigin(origin, 'NOTES.md');
    writeTree(repo, { 'pkg/mathx.py': 'def add(a, b):\n    return a + b  # sum\n' });
    const { data } = await serve.call('checkpoint', {
      changed_files: ['pkg/mathx.py'],
      commit_message: 'add: comment',
      push: true,
    });
    expect(data.error?.code, JSON.stringify(data)).to.equal('E_PUSH_FAILED');
    expect(data.error?.message).to.match(
      /^committed [0-9a-f]{12} locally, but did not push: origin rejected the push.*The local commit stays/,
    );
    expect(data.error?.details['commit']).to.equal(head());
    expect(git(repo, 'log', '-1', '--format=%s')).to.equal('add: comment');
    expect(git(repo, 'show', 'HEAD:pkg/mathx.py')).to.equal('def add(a, b):\n    return a + b  # sum');
    expect(git(origin, 'log', '-1', '--format=%s', 'main')).to.equal('elsewhere');
  });
});

describe('checkpoint over MCP: pytest results from the background test scheduler', function () {
  this.timeout(600_000);
  let serve: ServeClient;
  let repo: string;

  /** Waits until the scheduler is idle with every stored result still true (it re-runs what a change made stale). */
  async function settled(): Promise<void> {
    for (let attempt = 0; attempt < 1200; attempt++) {
      const { data } = await serve.call('blast_radius', { changed_files: ['pkg/mathx.py'] });
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
    const venv = pythonToolsVenv();
    ({ repo } = repoWithOrigin(PROJECT, 'pkg/*.py'));
    symlinkSync(venv, join(repo, '.venv'), 'dir');
    serve = await ServeClient.start(repo);
  });
  after(async () => {
    await serve?.close();
  });

  it('reuses fresh results with their age, and runs live once a covered file changed', async () => {
    await serve.call('checkpoint', { changed_files: ['pkg/mathx.py'], lint: false }); // starts the scheduler
    writeTree(repo, { 'pkg/mathx.py': 'def add(a, b):\n    return b + a\n' });
    await settled(); // the scheduler re-ran the tests covering mathx.py on the new version
    const reused = parts((await serve.call('checkpoint', { changed_files: ['pkg/mathx.py'], lint: false })).data).tests;
    expect(reused.selection).to.equal('coverage');
    expect(reused.hops[0]).to.include({ distance: 0, status: 'passed' });
    expect(reused.hops[0]?.commands, 'nothing ran live at distance 0').to.deep.equal([]);
    expect(reused.cached.used).to.be.at.least(2);
    expect(reused.cached.tests?.map((t) => t.id)).to.include('tests/test_mathx.py::test_adds_two_numbers');
    expect(reused.cached.tests?.every((t) => t.status === 'passed' && t.age_s >= 0)).to.equal(true);

    writeTree(repo, { 'pkg/mathx.py': 'def add(a, b):\n    return a - b\n' });
    const live = parts((await serve.call('checkpoint', { changed_files: ['pkg/mathx.py'], lint: false })).data).tests;
    // coverage was taken at the first edit (neither HEAD nor now): the change is read against that version
    expect(live.selection, 'tests chosen from coverage taken at the earlier edit').to.equal('coverage');
    expect(live.hops[0]?.commands.length, 'distance 0 ran live').to.equal(1);
    expect(live.hops[0]?.commands[0]).to.contain('pytest');
    expect(live.cached.tests?.map((t) => t.id) ?? []).to.not.include('tests/test_mathx.py::test_adds_two_numbers');
    expect(live.failures.map((f) => f.id)).to.include('tests/test_mathx.py::test_adds_two_numbers');
    expect(live.failures[0]?.message).to.not.match(/^\(cached\)/);
  });
});
