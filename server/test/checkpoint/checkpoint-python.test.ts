import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { writeTree } from '@agentgov/core/testing';
import { git, pythonToolsVenv, repoWithOrigin, resetTo, ServeClient, type Structured } from './serve-client.js';

/** A small Python project: ruff (pyflakes rules), pytest; fmt.py imports mathx.py, so test_fmt.py is one hop farther from mathx.py than test_mathx.py. */
const PROJECT = {
  'pyproject.toml': '[project]\nname = "demo"\nversion = "0.1.0"\n\n[tool.ruff.lint]\nselect = ["F"]\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
  '.gitignore': '.venv\n__pycache__/\n.pytest_cache/\n',
  'pkg/__init__.py': '',
  'pkg/mathx.py': 'def add(a, b):\n    return a + b\n',
  'pkg/fmt.py': 'from pkg.mathx import add\n\n\ndef total(xs):\n    result = 0\n    for x in xs:\n        result = add(result, x)\n    return f"{result:.2f}"\n',
  'tests/test_mathx.py': 'from pkg.mathx import add\n\n\ndef test_adds_two_numbers():\n    assert add(2, 3) == 5\n\n\ndef test_adds_negatives():\n    assert add(-2, -3) == -5\n',
  'tests/test_fmt.py': 'from pkg.fmt import total\n\n\ndef test_sums_and_formats():\n    assert total([1, 2]) == "3.00"\n',
};

type Data = {
  ok: boolean;
  lint: { problems: string[]; fixed_files: string[]; linters: { name: string; status: string }[] };
  tests: { hops: { distance: number; files: string[]; status: string; passed: number; commands: string[] }[]; failures: { id: string; message: string; stack: string[] }[] };
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
    expect(tests.hops[0]?.files).to.deep.equal(['tests/test_mathx.py']);
    expect(tests.hops[1]).to.include({ distance: 1, status: 'not_run' });
    expect(tests.failures.map((f) => f.id)).to.include('tests/test_mathx.py::test_adds_two_numbers');
    expect(commit?.committed).to.equal(false);
    expect(head()).to.equal(before);
  });

  it('auto-fix, all green, hook fix included, pushed: one commit in origin', async () => {
    const before = head();
    writeTree(repo, { 'pkg/mathx.py': 'import os\n\n\ndef add(a, b):   \n    return a + b\n' });
    const { data } = await serve.call('checkpoint', { changed_files: ['pkg/mathx.py'], commit_message: 'add: tidy', push: true });
    const { ok, lint, tests, commit, push } = parts(data);
    expect(ok, JSON.stringify(data)).to.equal(true);
    expect(lint.fixed_files).to.deep.equal(['pkg/mathx.py']);
    expect(tests.hops.map((h) => [h.distance, h.status, h.passed])).to.deep.equal([[0, 'passed', 2], [1, 'passed', 1], [2, 'empty', 0]]);
    expect(commit?.hook_modified).to.deep.equal(['pkg/mathx.py']);
    expect(git(repo, 'rev-parse', 'HEAD~1')).to.equal(before);
    expect(git(repo, 'show', 'HEAD:pkg/mathx.py')).to.equal('def add(a, b):\n    return a + b');
    expect(push?.pushed).to.equal(true);
    expect(git(origin, 'rev-parse', 'main')).to.equal(commit?.sha);
    git(repo, 'fetch', '-q', 'origin');
  });

  it('test_filter reaches pytest -k', async () => {
    writeTree(repo, { 'pkg/mathx.py': 'def add(a, b):\n    return b + a\n' });
    const { data } = await serve.call('checkpoint', { changed_files: ['pkg/mathx.py'], test_filter: 'negatives', autofix: false });
    const { tests } = parts(data);
    expect(tests.hops[0]).to.include({ status: 'passed', passed: 1 });
    expect(tests.hops[0]?.commands.join(' ')).to.contain('negatives');
  });
});
