import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger, type TestRunReport, type TestRunner, type TestRunRequest } from '@agentgov/core';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { openRepositoryIndex, type RepositoryIndex } from '../../src/index/repository-index.js';
import { CoverageStore } from '../../src/test-impact/coverage-store.js';
import { TestScheduler } from '../../src/test-impact/test-scheduler.js';

/** A runner whose every run lasts `ms` unless its signal aborts it; it records what it was asked. */
function slowRunner(ms: number): TestRunner & { calls: { files: string[]; aborted: boolean }[] } {
  const calls: { files: string[]; aborted: boolean }[] = [];
  return {
    name: 'slow',
    calls,
    detect: async () => true,
    discover: async () => ['t/a.test.js', 't/b.test.js'],
    isTestFile: (_root, file) => file.startsWith('t/'),
    command: (files) => `run ${files.join(' ')}`,
    run(_root: string, request: TestRunRequest): Promise<TestRunReport> {
      const call = { files: request.files, aborted: false };
      calls.push(call);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          const tests = request.files.map((file) => ({
            id: `${file} > works`,
            file,
            titlePath: ['works'],
            status: 'passed' as const,
            durationMs: 1,
          }));
          resolve({
            runner: 'slow',
            tests,
            files: [],
            coverage: [],
            exitCode: 0,
            timedOut: false,
            durationMs: ms,
            output: '',
          });
        }, ms);
        request.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          call.aborted = true;
          const error = new Error('the test run was cancelled');
          error.name = 'AbortError';
          reject(error);
        });
      });
    },
  };
}

const until = async (condition: () => boolean, what: string): Promise<void> => {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('test scheduler: a foreground run holds the background back', function () {
  this.timeout(30_000);
  let index: RepositoryIndex;
  let store: CoverageStore;
  beforeEach(async () => {
    const root = makeTempDir('scheduler-');
    writeFileSync(join(root, 'package.json'), '{"name":"p"}');
    index = await openRepositoryIndex({ root, languages: [], logger: silentLogger });
    await index.ready;
    store = new CoverageStore(index.db, root);
  });
  afterEach(async () => index.close());

  it('stops the running batch, starts nothing while held, and runs that batch again after the release', async () => {
    const runner = slowRunner(300);
    const scheduler = new TestScheduler({
      root: index.root,
      store,
      runners: [runner],
      logger: silentLogger,
      batchSize: 1,
    });
    await scheduler.started;
    await until(() => runner.calls.length === 1, 'the first batch');
    const release = scheduler.hold();
    await until(() => runner.calls[0]!.aborted, 'the running batch to stop');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(runner.calls, 'nothing starts while held').to.have.length(1);
    release();
    release(); // twice is harmless
    await scheduler.whenIdle();
    expect(runner.calls.map((c) => [c.files, c.aborted])).to.deep.equal([
      [['t/a.test.js'], true],
      [['t/a.test.js'], false],
      [['t/b.test.js'], false],
    ]);
    expect(
      store
        .allTests()
        .map((t) => t.test_id)
        .sort(),
    ).to.deep.equal(['t/a.test.js > works', 't/b.test.js > works']);
    expect(scheduler.status().state).to.equal('idle');
  });

  it('two holds: the background waits for both; a cancel while held still cancels', async () => {
    const runner = slowRunner(200);
    const scheduler = new TestScheduler({
      root: index.root,
      store,
      runners: [runner],
      logger: silentLogger,
      batchSize: 1,
    });
    await scheduler.started;
    await until(() => runner.calls.length === 1, 'the first batch');
    const first = scheduler.hold();
    const second = scheduler.hold();
    first();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(runner.calls, 'still held by the second').to.have.length(1);
    second();
    await until(() => runner.calls.length === 2, 'the batch to run again');
    scheduler.cancel();
    await scheduler.whenIdle();
    expect(scheduler.status().state).to.equal('cancelled');
    expect(runner.calls.at(-1)!.aborted).to.equal(true);
  });
});

describe('coverage store: remembered reads follow every write', () => {
  it('test cases, tests of a file and coverage sizes change with recordResults, recordCoverage and forgetTestFiles', async () => {
    const root = makeTempDir('store-');
    writeFileSync(join(root, 'package.json'), '{"name":"p"}');
    writeFileSync(join(root, 'lib.js'), 'a\nb\nc\n');
    const index = await openRepositoryIndex({ root, languages: [], logger: silentLogger });
    await index.ready;
    try {
      const store = new CoverageStore(index.db, root);
      expect(store.allTests()).to.deep.equal([]);
      store.recordResults('slow', [
        { id: 't/a.js > x', file: 't/a.js', titlePath: ['x'], status: 'passed', durationMs: 1 },
      ]);
      expect(store.allTests().map((t) => t.test_id)).to.deep.equal(['t/a.js > x']);
      expect(store.testCase('t/a.js > x')?.file).to.equal('t/a.js');
      store.recordResults('slow', [
        { id: 't/b.js > y', file: 't/b.js', titlePath: ['y'], status: 'failed', durationMs: 1 },
      ]);
      expect(store.testsOfFile('t/b.js').map((t) => t.status)).to.deep.equal(['failed']);
      expect(store.coverageSizes().size).to.equal(0);
      store.recordCoverage('slow', [{ scope: 'test', id: 't/a.js > x', files: [{ file: 'lib.js', lines: [1, 2] }] }]);
      expect(store.coverageSizes().get('t/a.js > x')).to.equal(2);
      expect([...store.testsCoveringLines('lib.js', [2]).keys()]).to.deep.equal(['t/a.js > x']);
      store.forgetTestFiles(['t/a.js']);
      expect(store.testCase('t/a.js > x')).to.equal(undefined);
      expect(store.coverageSizes().has('t/a.js > x')).to.equal(false);
      expect(store.allTests().map((t) => t.test_id)).to.deep.equal(['t/b.js > y']);
    } finally {
      await index.close();
    }
  });
});
