import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { expect } from 'chai';
import { defineTestRunner, runReport, type TestRunnerSpec } from '../../src/index.js';

/** A runner whose test files are the `*.test.js` files of `test/`, listed by walking the directory. */
function directoryRunner(walks: { count: number }): TestRunnerSpec {
  return {
    name: 'dir',
    detect: () => true,
    testFiles(root) {
      walks.count += 1;
      return readdirSync(join(root, 'test'))
        .filter((name) => name.endsWith('.test.js'))
        .map((name) => `test/${name}`)
        .sort();
    },
    shell: { command: 'dir-run', filter: (pattern) => `--grep ${pattern}`, select: 'path' },
    run: () => Promise.reject(new Error('not run in this test')),
  };
}

describe('defineTestRunner', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'define-runner-'));
    mkdirSync(join(root, 'test'));
    writeFileSync(join(root, 'test', 'a.test.js'), '');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('answers isTestFile for many files from one listing of the project per turn of the event loop', async () => {
    const walks = { count: 0 };
    const runner = defineTestRunner(directoryRunner(walks));
    const asked = ['test/a.test.js', 'lib/a.js', 'test/b.test.js', 'lib/b.js', 'test/a.test.js'];
    expect(asked.map((file) => runner.isTestFile(root, file))).to.deep.equal([true, false, false, false, true]);
    expect(walks.count).to.equal(1);

    // A test file added later is seen once the loop has turned: the listing is a snapshot of one synchronous run.
    writeFileSync(join(root, 'test', 'b.test.js'), '');
    await turn();
    expect(runner.isTestFile(root, 'test/b.test.js')).to.equal(true);
    expect(walks.count).to.equal(2);
  });

  it('says no, without throwing, when the project cannot be listed', () => {
    const walks = { count: 0 };
    const runner = defineTestRunner(directoryRunner(walks));
    rmSync(join(root, 'test'), { recursive: true });
    expect(runner.isTestFile(root, 'test/a.test.js')).to.equal(false);
  });
});

describe("runReport: a JS runner's report from its reporter's cases", function () {
  const outcome = { exitCode: 1, timedOut: false, durationMs: 40, output: 'done' };
  const cases = [
    { file: 'test/a.test.js', titlePath: ['a', 'adds'], status: 'passed' as const, durationMs: 3 },
    {
      file: 'test/a.test.js',
      titlePath: ['a', 'fails'],
      status: 'failed' as const,
      durationMs: 4,
      failure: { message: 'no' },
    },
  ];

  it('names each case, gives each file its result, and carries the outcome; no coverage unless collected', function () {
    const report = runReport('mocha', ['test/a.test.js', 'test/b.test.js'], cases, { outcome });
    expect(report.tests.map((test) => test.id)).to.deep.equal([
      'test/a.test.js > a > adds',
      'test/a.test.js > a > fails',
    ]);
    expect(report.files).to.deep.equal([
      { file: 'test/a.test.js', status: 'failed', durationMs: 7, output: '' },
      { file: 'test/b.test.js', status: 'passed', durationMs: 0, output: '' },
    ]);
    expect(report).to.include({ runner: 'mocha', exitCode: 1, timedOut: false, durationMs: 40, output: 'done' });
    expect(report).not.to.have.property('coverage');
  });

  it("takes a runner's own file result and the coverage it collected", function () {
    const coverage = [{ scope: 'test' as const, id: 'test/a.test.js > a > adds', files: [] }];
    const report = runReport('node', ['test/c.test.js'], [], { outcome, coverage }, (file) => ({
      file,
      status: 'error',
      durationMs: 0,
      output: 'did not load',
    }));
    expect(report.files).to.deep.equal([
      { file: 'test/c.test.js', status: 'error', durationMs: 0, output: 'did not load' },
    ]);
    expect(report).to.include({ coverageGranularity: 'test' });
    expect(report.coverage).to.equal(coverage);
  });
});
