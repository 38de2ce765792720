import { AgentgovError } from '@agentgov/core';
import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { expect } from 'chai';
import { createPytestRunner, readPytestSetup } from '../src/index.js';
// @ts-expect-error: a plain .mjs script shared with `npm test`'s pretest step
import { ensurePythonEnv } from '../../scripts/python-env.mjs';

const CALC = `LIMIT = 100


def clamp(value, low, high):
    if value < low:
        return low
    if value > high:
        return high
    return value


def unused(x):
    doubled = x * 2
    return doubled + LIMIT
`;

function project(extra: Record<string, string> = {}): string {
  const root = makeTempDir('pytest-project-');
  writeTree(root, {
    'pyproject.toml': '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    'calc.py': CALC,
    'other.py': 'def greet(name):\n    return "hello " + name\n',
    'tests/test_calc.py': `import pytest
from calc import clamp


def test_inside():
    assert clamp(5, 0, 10) == 5


def test_low():
    assert clamp(-1, 0, 10) == 0


def test_wrong_on_purpose():
    assert clamp(20, 0, 10) == 11


@pytest.mark.skip(reason="not now")
def test_skipped():
    pass


class TestGroup:
    @pytest.mark.parametrize("v", [1, 2])
    def test_param(self, v):
        assert clamp(v, 0, 10) == v
`,
    'tests/test_other.py': 'from other import greet\n\n\ndef test_greet():\n    assert greet("a") == "hello a"\n',
    'tests/conftest.py': 'import sys, os\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n',
    'tests/helper.py': '',
    ...extra,
  });
  return root;
}

describe('pytest runner', function () {
  let runner: ReturnType<typeof createPytestRunner>;
  before(function () {
    this.timeout(300_000);
    runner = createPytestRunner({ python: ensurePythonEnv() as string });
  });

  it('discovers test files from testpaths and python_files', async () => {
    const root = project();
    expect(await runner.detect(root)).to.equal(true);
    expect(await runner.discover(root)).to.deep.equal(['tests/test_calc.py', 'tests/test_other.py']);
    const ini = project({
      'pytest.ini': '[pytest]\ntestpaths = tests\npython_files = *_check.py\n',
      'tests/calc_check.py': 'def test_x():\n    pass\n',
    });
    expect(readPytestSetup(ini)).to.deep.include({
      testpaths: ['tests'],
      pythonFiles: ['*_check.py'],
      source: 'pytest.ini',
    });
    expect(await runner.discover(ini)).to.deep.equal(['tests/calc_check.py']);
  });

  it('reports every test case by node id with status, duration and failure message', async () => {
    const root = project();
    const report = await runner.run(root, { files: ['tests/test_calc.py'] });
    const byId = new Map(report.tests.map((t) => [t.id, t]));
    expect([...byId.keys()].sort()).to.deep.equal([
      'tests/test_calc.py::TestGroup::test_param[1]',
      'tests/test_calc.py::TestGroup::test_param[2]',
      'tests/test_calc.py::test_inside',
      'tests/test_calc.py::test_low',
      'tests/test_calc.py::test_skipped',
      'tests/test_calc.py::test_wrong_on_purpose',
    ]);
    expect(byId.get('tests/test_calc.py::test_inside')).to.include({ status: 'passed', file: 'tests/test_calc.py' });
    expect(byId.get('tests/test_calc.py::test_skipped')?.status).to.equal('skipped');
    expect(byId.get('tests/test_calc.py::TestGroup::test_param[2]')?.titlePath).to.deep.equal([
      'TestGroup',
      'test_param[2]',
    ]);
    const failed = byId.get('tests/test_calc.py::test_wrong_on_purpose')!;
    expect(failed.status).to.equal('failed');
    expect(failed.failure?.message).to.contain('assert 10 == 11');
  });

  it('runs only the tests matching the name filter', async () => {
    const root = project();
    const report = await runner.run(root, { files: [], nameFilter: 'test_low' });
    expect(report.tests.map((t) => t.id)).to.deep.equal(['tests/test_calc.py::test_low']);
  });

  it('collects coverage per test through coverage.py contexts; def lines and module bodies are import time', async () => {
    const root = project();
    const report = await runner.run(root, { files: [], coverage: true });
    const linesOf = (id: string, file: string) =>
      report.coverage?.find((c) => c.id === id)?.files.find((f) => f.file === file)?.lines ?? [];
    expect(linesOf('tests/test_calc.py::test_inside', 'calc.py')).to.deep.equal([5, 7, 9]);
    expect(linesOf('tests/test_calc.py::test_low', 'calc.py')).to.deep.equal([5, 6]);
    expect(linesOf('tests/test_other.py::test_greet', 'calc.py')).to.deep.equal([]);
    expect(linesOf('*', 'calc.py')).to.deep.equal([1, 4, 12]);
  });

  it('names pytest when the interpreter lacks it', async () => {
    const root = project();
    const bare = createPytestRunner({ python: 'python3' });
    const error = await bare.run(root, { files: [], env: { PYTHONNOUSERSITE: '1' } }).catch((e: unknown) => e);
    if (error instanceof AgentgovError) {
      expect(error.code).to.equal('E_TEST_RUNNER_MISSING');
      expect(error.message).to.match(/^pytest: /);
    } else {
      // This machine's system python has pytest: point at an interpreter that cannot exist instead.
      const missing = await createPytestRunner({ python: '/nonexistent/python3' })
        .run(root, { files: [] })
        .catch((e: unknown) => e);
      expect((missing as AgentgovError).code).to.equal('E_TEST_RUNNER_MISSING');
      expect((missing as AgentgovError).message).to.contain('pytest');
    }
  });

  it('answers E_TEST_CONFIG_INVALID naming pytest for a broken config', async () => {
    const root = project({ 'pytest.ini': '[pytest]\naddopts = --no-such-option\n' });
    const error = await runner.run(root, { files: [] }).catch((e: unknown) => e);
    expect((error as AgentgovError).code).to.equal('E_TEST_CONFIG_INVALID');
    expect((error as AgentgovError).message)
      .to.match(/^pytest: /)
      .and.contain('pytest.ini');
  });
});
