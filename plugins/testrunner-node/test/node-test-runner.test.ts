import { AgentgovError } from '@agentgov/core';
import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { expect } from 'chai';
import { createNodeTestRunner, nodeTestArgsOfScript, readNodeTestSetup } from '../src/index.js';

const MATH = `export const LIMIT = 100;

export function clamp(value, low, high) {
  if (value < low) return low;
  if (value > high) return high;
  return value;
}

export function unused(x) {
  const doubled = x * 2;
  return doubled + LIMIT;
}
`;

/** A small ES-module project whose `test` script runs node:test (node itself is the runner). */
function project(extra: Record<string, string> = {}): string {
  const root = makeTempDir('node-test-project-');
  writeTree(root, {
    'package.json': JSON.stringify({
      name: 'p',
      private: true,
      type: 'module',
      scripts: { test: 'node --test --test-reporter=spec test/' },
    }),
    'src/math.js': MATH,
    'src/other.js': `export function greet(name) {\n  return 'hello ' + name;\n}\n`,
    'test/math.test.js': `import { describe, it } from 'node:test';
import assert from 'node:assert';
import { clamp } from '../src/math.js';

describe('clamp', () => {
  it('keeps values inside', () => {
    assert.strictEqual(clamp(5, 0, 10), 5);
  });
  it('raises low values', () => {
    assert.strictEqual(clamp(-1, 0, 10), 0);
  });
  it('is wrong on purpose', () => {
    assert.strictEqual(clamp(20, 0, 10), 11);
  });
  it.skip('is skipped', () => {});
});
`,
    'test/other.test.js': `import { test } from 'node:test';
import assert from 'node:assert';
import { greet } from '../src/other.js';

test('greets', () => {
  assert.strictEqual(greet('a'), 'hello a');
});
`,
    'test/fixtures/data.json': '{}',
    'src/helper.js': 'export const notATest = 1;\n',
    ...extra,
  });
  return root;
}

describe('node:test runner', function () {
  this.timeout(120_000);
  const runner = createNodeTestRunner();
  let root: string;

  before(() => {
    root = project();
  });

  it('reads the node --test script: patterns and the node options every run needs', () => {
    expect(nodeTestArgsOfScript('tsc -b && node --import tsx --test "test/**/*.test.ts"')).to.deep.equal([
      '--import',
      'tsx',
      '--test',
      'test/**/*.test.ts',
    ]);
    expect(nodeTestArgsOfScript('node build.js')).to.equal(undefined);
    const setup = readNodeTestSetup(
      project({
        'package.json': JSON.stringify({ scripts: { test: 'node --import tsx --test --test-concurrency=1 test/' } }),
      }),
    );
    expect(setup).to.deep.include({
      patterns: ['test/'],
      nodeOptions: ['--import=tsx'],
      typescript: true,
      source: 'package.json#scripts.test',
    });
  });

  it('detects node:test projects by their test script and discovers files as node --test does', async () => {
    expect(await runner.detect(root)).to.equal(true);
    const plain = makeTempDir('plain-');
    writeTree(plain, { 'package.json': JSON.stringify({ scripts: { test: 'mocha' } }) });
    expect(await runner.detect(plain)).to.equal(false);
    expect(await runner.discover(root)).to.deep.equal(['test/math.test.js', 'test/other.test.js']);
    expect(runner.isTestFile(root, 'src/helper.js')).to.equal(false);
  });

  it('reports every test case with a stable id, status, duration and failure message', async () => {
    const report = await runner.run(root, { files: ['test/math.test.js'] });
    const byId = new Map(report.tests.map((test) => [test.id, test]));
    expect([...byId.keys()].sort()).to.deep.equal([
      'test/math.test.js > clamp > is skipped',
      'test/math.test.js > clamp > is wrong on purpose',
      'test/math.test.js > clamp > keeps values inside',
      'test/math.test.js > clamp > raises low values',
    ]);
    expect(byId.get('test/math.test.js > clamp > keeps values inside')).to.include({
      status: 'passed',
      file: 'test/math.test.js',
    });
    expect(byId.get('test/math.test.js > clamp > is skipped')!.status).to.equal('skipped');
    const wrong = byId.get('test/math.test.js > clamp > is wrong on purpose')!;
    expect(wrong).to.include({ status: 'failed' });
    expect(wrong.failure!.message).to.match(/10 !== 11/);
    expect(report.files).to.deep.equal([
      { file: 'test/math.test.js', status: 'failed', durationMs: report.files[0]!.durationMs, output: '' },
    ]);
  });

  it('runs only the tests matching the name filter', async () => {
    const report = await runner.run(root, { files: ['test/math.test.js', 'test/other.test.js'], nameFilter: 'raises' });
    expect(report.tests.filter((test) => test.status !== 'skipped').map((test) => test.id)).to.deep.equal([
      'test/math.test.js > clamp > raises low values',
    ]);
  });

  it('collects per-test coverage through the inspector; loading counts for the test file', async () => {
    const report = await runner.run(root, { files: ['test/math.test.js', 'test/other.test.js'], coverage: true });
    expect(report.coverageGranularity).to.equal('test');
    const coverage = new Map(
      report.coverage!.map((entry) => [
        `${entry.scope} ${entry.id}`,
        new Map(entry.files.map((f) => [f.file, f.lines])),
      ]),
    );
    expect(coverage.get('test test/math.test.js > clamp > keeps values inside')!.get('src/math.js')).to.include.members(
      [4, 5, 6],
    );
    expect(coverage.get('test test/math.test.js > clamp > raises low values')!.get('src/math.js'))
      .to.include(4)
      .and.not.include(5);
    expect(coverage.get('test test/other.test.js > greets')!.has('src/math.js')).to.equal(false);
    for (const files of coverage.values())
      for (const line of files.get('src/math.js') ?? []) expect([10, 11]).to.not.include(line);
    expect(coverage.get('file test/math.test.js')!.get('src/math.js')).to.include(1);
  });

  it('reports a test file that fails to load as an error with the reason', async () => {
    const broken = project({ 'test/broken.test.js': `import { nothing } from '../src/missing.js';\nnothing();\n` });
    const report = await runner.run(broken, { files: ['test/broken.test.js', 'test/other.test.js'] });
    const file = report.files.find((f) => f.file === 'test/broken.test.js')!;
    expect(file.status).to.equal('error');
    expect(file.output).to.match(/Cannot find module .*missing\.js/);
    expect(report.files.find((f) => f.file === 'test/other.test.js')).to.include({ status: 'passed' });
  });

  it('names node when a loader the test script needs is not installed', async () => {
    const tsx = project({
      'package.json': JSON.stringify({ type: 'module', scripts: { test: 'node --import tsx --test test/' } }),
    });
    const error = await runner.run(tsx, { files: [] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(AgentgovError);
    expect(error).to.include({ code: 'E_TEST_RUNNER_MISSING' });
    expect((error as AgentgovError).message).to.match(/^node: the test script loads `tsx`/);
  });

  it('answers E_TEST_CONFIG_INVALID naming node for a broken package.json', async () => {
    const broken = project({ 'package.json': '{ "scripts": ' });
    const error = await runner.discover(broken).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.include({ code: 'E_TEST_CONFIG_INVALID' });
    expect((error as AgentgovError).message).to.match(/^node: package\.json cannot be read/);
  });
});
