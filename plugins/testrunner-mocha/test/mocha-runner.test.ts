import { symlinkSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AgentgovError } from '@agentgov/core';
import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { expect } from 'chai';
import { createMochaRunner, readMochaSetup } from '../src/index.js';

const MOCHA_DIR = dirname(createRequire(import.meta.url).resolve('mocha/package.json'));

const MATH = `'use strict';
const LIMIT = 100;

function clamp(value, low, high) {
  if (value < low) return low;
  if (value > high) return high;
  return value;
}

function unused(x) {
  const doubled = x * 2;
  return doubled + LIMIT;
}

module.exports = { clamp, unused };
`;

const OTHER = `'use strict';
exports.greet = function greet(name) {
  return 'hello ' + name;
};
`;

/** A small mocha project using the real mocha (linked from agentgov's own install). */
function project(extra: Record<string, string> = {}): string {
  const root = makeTempDir('mocha-project-');
  writeTree(root, {
    'package.json': JSON.stringify({ name: 'p', private: true, scripts: { test: 'mocha --check-leaks test/' } }),
    'src/math.js': MATH,
    'src/other.js': OTHER,
    'test/math.test.js': `const assert = require('node:assert');
const { clamp } = require('../src/math');
describe('clamp', () => {
  it('keeps values inside', () => assert.strictEqual(clamp(5, 0, 10), 5));
  it('raises low values', () => assert.strictEqual(clamp(-1, 0, 10), 0));
  it('is wrong on purpose', () => assert.strictEqual(clamp(20, 0, 10), 11));
  it.skip('is skipped', () => {});
});
`,
    'test/other.test.js': `const assert = require('node:assert');
const { greet } = require('../src/other');
describe('greet', () => {
  it('greets', () => assert.strictEqual(greet('a'), 'hello a'));
});
`,
    'test/helper.txt': 'not a test',
    ...extra,
  });
  mkdirSync(join(root, 'node_modules'), { recursive: true });
  symlinkSync(MOCHA_DIR, join(root, 'node_modules', 'mocha'));
  return root;
}

describe('mocha runner', () => {
  const runner = createMochaRunner();

  it('discovers test files from the package.json test script', async () => {
    const root = project();
    expect(await runner.detect(root)).to.equal(true);
    expect(await runner.discover(root)).to.deep.equal(['test/math.test.js', 'test/other.test.js']);
    expect(readMochaSetup(root).passThrough).to.deep.equal(['--check-leaks']);
  });

  it('discovers from .mocharc.json spec globs', async () => {
    const root = project({
      '.mocharc.json': JSON.stringify({ spec: ['test/**/*.test.js'] }),
      'package.json': '{"name":"p"}',
    });
    expect(await runner.discover(root)).to.deep.equal(['test/math.test.js', 'test/other.test.js']);
  });

  it('reports every test case with a stable id, status, duration and failure message', async () => {
    const root = project();
    const report = await runner.run(root, { files: ['test/math.test.js'] });
    const byId = new Map(report.tests.map((t) => [t.id, t]));
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
    expect(byId.get('test/math.test.js > clamp > is skipped')?.status).to.equal('skipped');
    const failed = byId.get('test/math.test.js > clamp > is wrong on purpose')!;
    expect(failed.status).to.equal('failed');
    expect(failed.failure?.message).to.contain('11');
    expect(failed.titlePath).to.deep.equal(['clamp', 'is wrong on purpose']);
    expect(report.files).to.deep.equal([
      { file: 'test/math.test.js', status: 'failed', durationMs: report.files[0]!.durationMs, output: '' },
    ]);
  });

  it('runs only the tests matching the name filter', async () => {
    const root = project();
    const report = await runner.run(root, { files: [], nameFilter: 'raises' });
    expect(report.tests.map((t) => t.id)).to.deep.equal(['test/math.test.js > clamp > raises low values']);
  });

  // A CommonJS project is instrumented by default; V8 precise coverage on request (and for ES modules).
  for (const [engine, env] of [
    ['instrumented sources (the default for CommonJS)', {}],
    ['V8 precise coverage (AGENTGOV_COVERAGE_ENGINE=v8)', { AGENTGOV_COVERAGE_ENGINE: 'v8' }],
  ] as const) {
    it(`collects per-test coverage with ${engine}: a test covers the lines it ran, module bodies count as import time`, async () => {
      const root = project();
      const report = await runner.run(root, {
        files: ['test/math.test.js', 'test/other.test.js'],
        coverage: true,
        env,
      });
      expect(report.tests.filter((t) => t.status === 'passed')).to.have.length(3); // --check-leaks: the coverage global is not a leak
      expect(report.coverageGranularity).to.equal('test');
      const linesOf = (id: string, file: string) =>
        report.coverage?.find((c) => c.id === id)?.files.find((f) => f.file === file)?.lines ?? [];
      const inside = linesOf('test/math.test.js > clamp > keeps values inside', 'src/math.js');
      expect(inside).to.include.members([5, 6, 7]);
      expect(inside).to.not.include.members([11, 12]);
      expect(linesOf('test/math.test.js > clamp > raises low values', 'src/math.js')).to.include(5).and.not.include(7);
      expect(linesOf('test/other.test.js > greet > greets', 'src/math.js')).to.deep.equal([]);
      expect(linesOf('test/other.test.js > greet > greets', 'src/other.js')).to.include(3);
      const loaded = linesOf('*', 'src/math.js');
      expect(loaded).to.include.members([1, 2, 15]);
      expect(loaded).to.not.include(11);
    });
  }

  it("instrumented sources keep their line numbers in a failure's stack", async () => {
    const root = project({
      'src/thrower.js':
        "'use strict';\n\nfunction check(value) {\n  if (value > 1) {\n    throw new Error('too big: ' + value);\n  }\n  return value;\n}\nmodule.exports = { check };\n",
      'test/thrower.test.js':
        "const { check } = require('../src/thrower');\ndescribe('check', () => {\n  it('throws', () => check(5));\n});\n",
    });
    const report = await runner.run(root, { files: ['test/thrower.test.js'], coverage: true });
    const failure = report.tests.find((t) => t.id === 'test/thrower.test.js > check > throws')?.failure;
    expect(failure?.message).to.equal('too big: 5');
    expect(failure?.stack, failure?.stack).to.match(/src\/thrower\.js:5:/);
    expect(
      report.coverage
        ?.find((c) => c.id === 'test/thrower.test.js > check > throws')
        ?.files.find((f) => f.file === 'src/thrower.js')?.lines,
    )
      .to.include.members([4, 5])
      .and.not.include(7);
  });

  it('project code that ran without instrumentation (an ES module) counts for every test, and says so', async () => {
    const root = project({
      'src/esm.mjs': 'export function twice(x) {\n  return x * 2;\n}\n',
      'test/esm.test.js':
        "const assert = require('node:assert');\ndescribe('twice', () => {\n  it('doubles', async () => assert.strictEqual((await import('../src/esm.mjs')).twice(2), 4));\n});\n",
    });
    const report = await runner.run(root, { files: ['test/esm.test.js', 'test/other.test.js'], coverage: true });
    expect(report.tests.every((t) => t.status === 'passed')).to.equal(true);
    const everyTest = report.coverage
      ?.find((c) => c.scope === 'file' && c.id === '*')
      ?.files.find((f) => f.file === 'src/esm.mjs')?.lines;
    expect(everyTest, 'charged to the file scope *').to.include.members([1, 2]);
    expect(report.output).to.contain('src/esm.mjs ran without instrumentation');
  });

  it('an ES module package gets V8 coverage: nothing is left uncounted', async () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'p', private: true, type: 'module', scripts: { test: 'mocha test/' } }),
      'src/math.js': 'export function clamp(value, low, high) {\n  if (value < low) return low;\n  return value;\n}\n',
      'test/math.test.js':
        "import assert from 'node:assert';\nimport { clamp } from '../src/math.js';\ndescribe('clamp', () => {\n  it('raises', () => assert.strictEqual(clamp(-1, 0, 10), 0));\n});\n",
    });
    const report = await runner.run(root, { files: ['test/math.test.js'], coverage: true });
    const lines = report.coverage
      ?.find((c) => c.id === 'test/math.test.js > clamp > raises')
      ?.files.find((f) => f.file === 'src/math.js')?.lines;
    expect(lines).to.include(2).and.not.include(3);
    expect(report.output).to.not.contain('without instrumentation');
  });

  it("with AGENTGOV_COVERAGE_GROUP=suite, the tests of one suite share one take: each gets the suite's lines", async () => {
    const root = project();
    const report = await runner.run(root, {
      files: ['test/math.test.js', 'test/other.test.js'],
      coverage: true,
      env: { AGENTGOV_COVERAGE_GROUP: 'suite' },
    });
    const linesOf = (id: string, file: string) =>
      report.coverage?.find((c) => c.id === id)?.files.find((f) => f.file === file)?.lines ?? [];
    // 'raises low values' alone never reaches line 7; its suite-mate 'keeps values inside' does
    expect(linesOf('test/math.test.js > clamp > raises low values', 'src/math.js')).to.include.members([5, 7]);
    expect(linesOf('test/math.test.js > clamp > keeps values inside', 'src/math.js')).to.deep.equal(
      linesOf('test/math.test.js > clamp > raises low values', 'src/math.js'),
    );
    expect(linesOf('test/math.test.js > clamp > raises low values', 'src/math.js')).to.not.include.members([11, 12]);
    // another suite still gets only its own lines
    expect(linesOf('test/other.test.js > greet > greets', 'src/math.js')).to.deep.equal([]);
    expect(linesOf('test/other.test.js > greet > greets', 'src/other.js')).to.include(3);
  });

  it('names mocha when it is not installed in the project', async () => {
    const root = makeTempDir('no-mocha-');
    writeTree(root, { 'package.json': JSON.stringify({ scripts: { test: 'mocha' } }), 'test/a.js': '' });
    const error = await runner.run(root, { files: [] }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(AgentgovError);
    expect((error as AgentgovError).code).to.equal('E_TEST_RUNNER_MISSING');
    expect((error as AgentgovError).message).to.contain('mocha');
  });

  it('answers E_TEST_CONFIG_INVALID naming mocha and the file for a broken .mocharc', async () => {
    const root = project({ '.mocharc.yml': 'spec: [unclosed\n  - x: : :' });
    const error = await runner.discover(root).catch((e: unknown) => e);
    expect((error as AgentgovError).code).to.equal('E_TEST_CONFIG_INVALID');
    expect((error as AgentgovError).message).to.match(/^mocha: \.mocharc\.yml/);
  });
});
