import { AgentgovError } from '@agentgov/core';
import { linkTestNodePackages, makeTempDir, writeTree } from '@agentgov/core/testing';
import { expect } from 'chai';
import { createVitestRunner, usesVitest } from '../src/index.js';

/** The vitest the temp projects install (from the npm registry, once per checkout; see ensureTestNodePackages). */
export const VITEST = 'vitest@4.1.12';

const MATH = `export const LIMIT: number = 100;

export function clamp(value: number, low: number, high: number): number {
  if (value < low) return low;
  if (value > high) return high;
  return value;
}

export function unused(x: number): number {
  const doubled: number = x * 2;
  return doubled + LIMIT;
}
`;

/** A small TypeScript project with the real vitest and its own vitest.config.ts. */
function project(extra: Record<string, string> = {}, link = true): string {
  const root = makeTempDir('vitest-project-');
  writeTree(root, {
    'package.json': JSON.stringify({
      name: 'p',
      private: true,
      type: 'module',
      scripts: { test: 'vitest run' },
      devDependencies: { vitest: '4.1.12' },
    }),
    'vitest.config.ts': `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { include: ['test/**/*.check.ts'] } });\n`,
    'src/math.ts': MATH,
    'src/other.ts': `export function greet(name: string): string {\n  return 'hello ' + name;\n}\n`,
    'test/math.check.ts': `import { describe, it, expect } from 'vitest';
import { clamp } from '../src/math';

describe('clamp', () => {
  it('keeps values inside', () => {
    expect(clamp(5, 0, 10)).toBe(5);
  });
  it('raises low values', () => {
    expect(clamp(-1, 0, 10)).toBe(0);
  });
  it('is wrong on purpose', () => {
    expect(clamp(20, 0, 10)).toBe(11);
  });
  it.skip('is skipped', () => {});
});
`,
    'test/other.check.ts': `import { it, expect } from 'vitest';
import { greet } from '../src/other';

it('greets', () => {
  expect(greet('a')).toBe('hello a');
});
`,
    // The default include would pick this up; the project's config does not.
    'test/ignored.test.ts': `import { it } from 'vitest';\nit('never runs', () => {});\n`,
    ...extra,
  });
  if (link) linkTestNodePackages(root, [VITEST]);
  return root;
}

describe('vitest runner', function () {
  this.timeout(600_000);
  const runner = createVitestRunner();
  let root: string;

  before(() => {
    root = project();
  });

  it('detects vitest projects by config, script or dependency', async () => {
    expect(await runner.detect(root)).to.equal(true);
    const plain = makeTempDir('plain-');
    writeTree(plain, { 'package.json': JSON.stringify({ scripts: { test: 'mocha' } }) });
    expect(usesVitest(plain)).to.equal(false);
  });

  it("discovers test files through vitest's own resolution of vitest.config.ts", async () => {
    expect(await runner.discover(root)).to.deep.equal(['test/math.check.ts', 'test/other.check.ts']);
    expect(runner.isTestFile(root, 'test/other.check.ts')).to.equal(true);
    expect(runner.isTestFile(root, 'test/ignored.test.ts')).to.equal(false);
    // A file added after the discovery that vitest's default pattern matches counts as a test until the next one.
    expect(runner.isTestFile(root, 'test/added.test.ts')).to.equal(true);
    expect(runner.isTestFile(root, 'src/math.ts')).to.equal(false);
  });

  it('reports every test case with a stable id, status, duration and failure message', async () => {
    const report = await runner.run(root, { files: ['test/math.check.ts'] });
    const byId = new Map(report.tests.map((test) => [test.id, test]));
    expect([...byId.keys()].sort()).to.deep.equal([
      'test/math.check.ts > clamp > is skipped',
      'test/math.check.ts > clamp > is wrong on purpose',
      'test/math.check.ts > clamp > keeps values inside',
      'test/math.check.ts > clamp > raises low values',
    ]);
    expect(byId.get('test/math.check.ts > clamp > keeps values inside')).to.include({
      status: 'passed',
      file: 'test/math.check.ts',
    });
    expect(byId.get('test/math.check.ts > clamp > is skipped')!.status).to.equal('skipped');
    const wrong = byId.get('test/math.check.ts > clamp > is wrong on purpose')!;
    expect(wrong.status).to.equal('failed');
    expect(wrong.failure!.message).to.match(/expected 10 to be 11/);
    expect(wrong.titlePath).to.deep.equal(['clamp', 'is wrong on purpose']);
    expect(report.files).to.deep.equal([
      { file: 'test/math.check.ts', status: 'failed', durationMs: report.files[0]!.durationMs, output: '' },
    ]);
    expect(runner.testCommand!(wrong)).to.equal('npx vitest run -t "^clamp is wrong on purpose$" "test/math.check.ts"');
  });

  it('runs only the tests matching the name filter', async () => {
    const report = await runner.run(root, {
      files: ['test/math.check.ts', 'test/other.check.ts'],
      nameFilter: 'raises',
    });
    expect(report.tests.filter((test) => test.status !== 'skipped').map((test) => test.id)).to.deep.equal([
      'test/math.check.ts > clamp > raises low values',
    ]);
  });

  it('collects per-test coverage mapped to the .ts lines; loading counts for the test file', async () => {
    const report = await runner.run(root, { files: ['test/math.check.ts', 'test/other.check.ts'], coverage: true });
    expect(report.coverageGranularity).to.equal('test');
    const coverage = new Map(
      report.coverage!.map((entry) => [
        `${entry.scope} ${entry.id}`,
        new Map(entry.files.map((f) => [f.file, f.lines])),
      ]),
    );
    // clamp(5): the guard lines and the return; clamp(-1): only up to the first return.
    expect(coverage.get('test test/math.check.ts > clamp > keeps values inside')!.get('src/math.ts')).to.deep.equal([
      3, 4, 5, 6,
    ]);
    expect(coverage.get('test test/math.check.ts > clamp > raises low values')!.get('src/math.ts')).to.deep.equal([
      3, 4,
    ]);
    expect(coverage.get('test test/other.check.ts > greets')!.has('src/math.ts')).to.equal(false);
    // `unused` never runs, in any scope.
    for (const files of coverage.values())
      for (const line of files.get('src/math.ts') ?? []) expect(line).to.be.lessThan(9);
    // The module body (LIMIT) ran while the test file loaded.
    expect(coverage.get('file test/math.check.ts')!.get('src/math.ts')).to.include(1);
  });

  it('reports a test file that fails to load as an error, not as passing', async () => {
    const broken = project({
      'test/broken.check.ts': `import { it } from 'vitest';\nimport { nothing } from '../src/missing';\nit('x', () => nothing());\n`,
    });
    const report = await runner.run(broken, { files: ['test/broken.check.ts', 'test/other.check.ts'] });
    expect(report.files.find((f) => f.file === 'test/broken.check.ts')).to.include({ status: 'error' });
    expect(report.files.find((f) => f.file === 'test/broken.check.ts')!.output).to.match(/missing/);
    expect(report.files.find((f) => f.file === 'test/other.check.ts')).to.include({ status: 'passed' });
  });

  it('names vitest when it is not installed in the project', async () => {
    const bare = project({}, false);
    const error = await runner.run(bare, { files: [] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(AgentgovError);
    expect(error).to.include({ code: 'E_TEST_RUNNER_MISSING' });
    expect((error as AgentgovError).message).to.match(/^vitest: .*not installed/);
  });

  it('answers E_TEST_CONFIG_INVALID naming vitest and the config for a broken vitest.config.ts', async () => {
    const broken = project({ 'vitest.config.ts': `throw new Error('config exploded');\n` });
    for (const attempt of [() => runner.discover(broken), () => runner.run(broken, { files: [] })]) {
      const error = await attempt().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.include({ code: 'E_TEST_CONFIG_INVALID' });
      expect((error as AgentgovError).message).to.match(
        /^vitest: vitest\.config\.ts was rejected: [^]*config exploded/,
      );
    }
  });
});
