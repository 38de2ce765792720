import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolatedEnv, linkTestNodePackages, makeTempDir, writeTree } from '@agentgov/core/testing';
// @ts-expect-error: a plain .mjs script (the pytest plugin's test set-up), no types
import { ensurePythonEnv } from '@agentgov/plugin-testrunner-pytest/python-env';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'chai';
import { gitInit } from '../recon/fixture-repo.js';

/** The real CLI binary (built by the root `tsc -b`). */
const MAIN = fileURLToPath(new URL('../../../../cli/dist/src/main.js', import.meta.url));
const requireHere = createRequire(import.meta.url);

interface Fixture {
  name: string;
  /** The runner's name, which its errors start with. */
  runner: string;
  files: Record<string, string>;
  /** Installs the runner into the temp repo (links agentgov's own copy). */
  install?(root: string): void;
  env?(): Record<string, string>;
  math: string;
  /** The edit to clamp: [before, after] on one line. */
  edit: [string, string];
  clampTest: string;
  otherTestFile: string;
  /** 1-based lines of the body of the function no test calls. */
  unusedLines: number[];
  /** Breaks the runner's config (for the error test). */
  breakConfig: Record<string, string>;
  brokenCode: 'E_TEST_CONFIG_INVALID' | 'E_TEST_RUNNER_MISSING';
}

function link(root: string, pkg: string): void {
  mkdirSync(join(root, 'node_modules'), { recursive: true });
  symlinkSync(dirname(requireHere.resolve(`${pkg}/package.json`)), join(root, 'node_modules', pkg));
}

const JS_MOCHA: Fixture = {
  name: 'JavaScript + mocha',
  runner: 'mocha',
  files: {
    '.gitignore': 'node_modules/\n',
    'package.json': JSON.stringify({ name: 'demo', private: true, scripts: { test: 'mocha test/' } }),
    'src/math.js': `'use strict';

function clamp(value, low, high) {
  if (value < low) return low;
  if (value > high) return high;
  return value;
}

function unused(x) {
  const doubled = x * 2;
  return doubled + 1;
}

module.exports = { clamp, unused };
`,
    'src/strings.js': `'use strict';
exports.shout = function shout(text) {
  return text.toUpperCase() + '!';
};
`,
    'test/math.test.js': `const assert = require('node:assert');
const { clamp } = require('../src/math');
describe('math', () => {
  it('clamps high values', () => assert.strictEqual(clamp(20, 0, 10), 10));
});
`,
    'test/strings.test.js': `const assert = require('node:assert');
const { shout } = require('../src/strings');
describe('strings', () => {
  it('shouts', () => assert.strictEqual(shout('a'), 'A!'));
});
`,
  },
  install: (root) => link(root, 'mocha'),
  math: 'src/math.js',
  edit: ['if (value > high) return high;', 'if (value >= high) return high;'],
  clampTest: 'test/math.test.js > math > clamps high values',
  otherTestFile: 'test/strings.test.js',
  unusedLines: [10, 11],
  breakConfig: { '.mocharc.yml': 'spec: [unclosed\n  - : :' },
  brokenCode: 'E_TEST_CONFIG_INVALID',
};

const PY_PYTEST: Fixture = {
  name: 'Python + pytest',
  runner: 'pytest',
  files: {
    'pytest.ini': '[pytest]\ntestpaths = tests\npythonpath = .\n',
    'calc/__init__.py': '',
    'calc/math.py': `LIMIT = 100


def clamp(value, low, high):
    if value < low:
        return low
    if value > high:
        return high
    return value


def unused(x):
    doubled = x * 2
    return doubled + LIMIT
`,
    'calc/strings.py': 'def shout(text):\n    return text.upper() + "!"\n',
    'tests/test_math.py':
      'from calc.math import clamp\n\n\ndef test_clamps_high_values():\n    assert clamp(20, 0, 10) == 10\n',
    'tests/test_strings.py': 'from calc.strings import shout\n\n\ndef test_shouts():\n    assert shout("a") == "A!"\n',
  },
  env: () => ({ AGENTGOV_PYTHON: ensurePythonEnv() as string }),
  math: 'calc/math.py',
  edit: ['    if value > high:', '    if value >= high:'],
  clampTest: 'tests/test_math.py::test_clamps_high_values',
  otherTestFile: 'tests/test_strings.py',
  unusedLines: [13, 14],
  breakConfig: { 'pytest.ini': '[pytest]\ntestpaths = tests\naddopts = --no-such-option\n' },
  brokenCode: 'E_TEST_CONFIG_INVALID',
};

/** The real vitest, installed from the npm registry once per checkout (ensureTestNodePackages) and linked as the project's node_modules. */
const VITEST = 'vitest@4.1.12';

const TS_VITEST: Fixture = {
  name: 'TypeScript + vitest',
  runner: 'vitest',
  files: {
    '.gitignore': 'node_modules\n',
    'package.json': JSON.stringify({
      name: 'demo',
      private: true,
      type: 'module',
      scripts: { test: 'vitest run' },
      devDependencies: { vitest: '4.1.12' },
    }),
    'vitest.config.ts': `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { include: ['test/**/*.test.ts'] } });\n`,
    'src/math.ts': `export function clamp(value: number, low: number, high: number): number {
  if (value < low) return low;
  if (value > high) return high;
  return value;
}

export function unused(x: number): number {
  const doubled: number = x * 2;
  return doubled + 1;
}
`,
    'src/strings.ts': `export function shout(text: string): string {\n  return text.toUpperCase() + '!';\n}\n`,
    'test/math.test.ts': `import { describe, expect, it } from 'vitest';
import { clamp } from '../src/math';

describe('math', () => {
  it('clamps high values', () => {
    expect(clamp(20, 0, 10)).toBe(10);
  });
});
`,
    'test/strings.test.ts': `import { describe, expect, it } from 'vitest';
import { shout } from '../src/strings';

describe('strings', () => {
  it('shouts', () => {
    expect(shout('a')).toBe('A!');
  });
});
`,
  },
  install: (root) => linkTestNodePackages(root, [VITEST]),
  math: 'src/math.ts',
  edit: ['if (value > high) return high;', 'if (value >= high) return high;'],
  clampTest: 'test/math.test.ts > math > clamps high values',
  otherTestFile: 'test/strings.test.ts',
  unusedLines: [8, 9],
  breakConfig: { 'vitest.config.ts': `throw new Error('this config is broken');\n` },
  brokenCode: 'E_TEST_CONFIG_INVALID',
};

type Structured = Record<string, unknown> & { error?: { code: string; message: string } };

async function serve(
  repo: string,
  env: Record<string, string>,
): Promise<{ client: Client; call(name: string, args: object): Promise<Structured>; stderr(): string }> {
  const home = makeTempDir('agentgov-home-');
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'serve', '--repo', repo],
    env: isolatedEnv(home, env) as Record<string, string>,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const client = new Client({ name: 'test-impact-test', version: '0.0.0' });
  await client.connect(transport).catch((error: Error) => {
    throw new Error(`serve did not start: ${error.message}\n${stderr}`);
  });
  const call = async (name: string, args: object): Promise<Structured> => {
    for (;;) {
      const result = await client.callTool({ name, arguments: args as Record<string, unknown> });
      const structured = result.structuredContent as Structured;
      if (structured.error?.code !== 'E_INDEX_NOT_READY') return structured;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  return { client, call, stderr: () => stderr };
}

/** Polls a tool until `done` holds for its answer (the scheduler works in the background). */
async function until(
  call: () => Promise<Structured>,
  done: (answer: Structured) => boolean,
  what: string,
  seconds = 120,
): Promise<Structured> {
  let last: Structured | undefined;
  for (const deadline = Date.now() + seconds * 1000; Date.now() < deadline;) {
    last = await call();
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`timed out waiting for ${what}; last answer: ${JSON.stringify(last).slice(0, 2000)}`);
}

type Impact = {
  coverage: string;
  stale_files: string[];
  scheduler: { state: string; last_run: { kind: string } | null } | null;
};
type Candidate = {
  test_id: string;
  file: string;
  distance: number;
  confidence: number;
  command: string;
  evidence: { source: string };
};

for (const fixture of [JS_MOCHA, TS_VITEST, PY_PYTEST]) {
  describe(`test impact over MCP: ${fixture.name}`, function () {
    this.timeout(300_000);
    let server: Awaited<ReturnType<typeof serve>>;
    let repo: string;
    before(async () => {
      repo = makeTempDir('agentgov-impact-');
      writeTree(repo, fixture.files);
      gitInit(repo);
      fixture.install?.(repo);
      server = await serve(repo, fixture.env?.() ?? {});
    });
    after(async () => server?.client.close());

    it('builds coverage in the background, then ranks the test calling clamp first at distance 0 and leaves the unrelated test out', async () => {
      await until(
        () => server.call('covering_tests', { file_path: fixture.math }),
        (a) =>
          (a['test_impact'] as Impact).coverage === 'fresh' && (a['test_impact'] as Impact).scheduler?.state === 'idle',
        'the first coverage build',
      );
      const path = join(repo, fixture.math);
      writeFileSync(path, readFileSync(path, 'utf8').replace(fixture.edit[0], fixture.edit[1]));
      const answer = await server.call('blast_radius', { changed_files: [fixture.math] });
      expect(answer.error, server.stderr()).to.equal(undefined);
      const candidates = answer['candidates'] as Candidate[];
      expect(candidates[0]).to.deep.include({ test_id: fixture.clampTest, distance: 0 });
      expect(candidates[0]!.evidence.source).to.equal('coverage');
      expect(candidates[0]!.command).to.be.a('string').and.not.equal('');
      expect(candidates.map((c) => c.file)).to.not.include(fixture.otherTestFile);
      expect((answer['test_impact'] as Impact).stale_files).to.include(fixture.math);
    });

    it('reports the lines of an uncalled function as uncovered, with the tests hitting covered lines', async () => {
      const answer = await server.call('recon_line_coverage', { file_path: fixture.math, include_tests: true });
      expect(answer.error).to.equal(undefined);
      expect(answer['uncovered']).to.include.members(fixture.unusedLines);
      expect(answer['covered']).to.not.include.members(fixture.unusedLines);
      expect(Object.values(answer['tests_by_line'] as Record<string, string[]>).flat()).to.include(fixture.clampTest);
    });

    it('re-runs the tests of the edited function: the stale result is refreshed by the scheduler', async () => {
      const fresh = await until(
        () => server.call('covering_tests', { file_path: fixture.math }),
        (a) =>
          (a['test_impact'] as Impact).coverage === 'fresh' &&
          (a['test_impact'] as Impact).scheduler?.last_run?.kind === 'refresh',
        'the scheduler to refresh the edited file',
      );
      const defs = Object.values(
        fresh['definitions'] as Record<string, { qualified_name: string; tests: { test_id: string }[] }>,
      );
      expect(defs.find((d) => d.qualified_name === 'clamp')?.tests.map((t) => t.test_id)).to.deep.equal([
        fixture.clampTest,
      ]);
      expect(defs.find((d) => d.qualified_name === 'unused')?.tests).to.deep.equal([]);
      expect(fresh['coverage']).to.equal('fresh');
    });
  });

  describe(`test impact over MCP: ${fixture.name}, broken or missing runner`, function () {
    this.timeout(300_000);
    it(`answers ${fixture.brokenCode} naming the runner when its config is broken`, async () => {
      const repo = makeTempDir('agentgov-broken-');
      writeTree(repo, { ...fixture.files, ...fixture.breakConfig });
      gitInit(repo);
      fixture.install?.(repo);
      const server = await serve(repo, fixture.env?.() ?? {});
      try {
        const answer = await until(
          () => server.call('blast_radius', { changed_files: [fixture.math] }),
          (a) => a.error !== undefined,
          'the runner error',
        );
        expect(answer.error?.code).to.equal(fixture.brokenCode);
        expect(answer.error?.message).to.match(new RegExp(`^${fixture.runner}: `));
      } finally {
        await server.client.close();
      }
    });
  });
}

describe('test impact over MCP: the runner is not installed', function () {
  this.timeout(120_000);
  for (const fixture of [JS_MOCHA, TS_VITEST]) {
    it(`answers E_TEST_RUNNER_MISSING naming ${fixture.runner} when the project has no node_modules/${fixture.runner}`, async () => {
      const repo = makeTempDir('agentgov-missing-');
      writeTree(repo, fixture.files);
      gitInit(repo);
      const server = await serve(repo, {});
      try {
        const answer = await until(
          () => server.call('covering_tests', { file_path: fixture.math }),
          (a) => a.error !== undefined,
          'the missing-runner error',
        );
        expect(answer.error?.code).to.equal('E_TEST_RUNNER_MISSING');
        expect(answer.error?.message).to.match(new RegExp(`^${fixture.runner}: `));
      } finally {
        await server.client.close();
      }
    });
  }
});

describe('test impact over MCP: the scheduler from config, progress in recon_scout', function () {
  this.timeout(300_000);
  const repoWith = () => {
    const repo = makeTempDir('agentgov-startup-');
    writeTree(repo, JS_MOCHA.files);
    gitInit(repo);
    JS_MOCHA.install!(repo);
    return repo;
  };
  type Scout = {
    test_impact: Impact & {
      tests: number;
      scheduler: { state: string; last_run: { kind: string; tests: number } | null; niceness: number } | null;
    };
  };

  it('server.test_impact.scheduler: startup builds coverage without any test-impact call; recon_scout shows it', async () => {
    const repo = repoWith();
    const config = join(makeTempDir('agentgov-config-'), 'agentgov.yaml');
    writeFileSync(config, 'server:\n  test_impact:\n    scheduler: startup\n    niceness: 15\n');
    const server = await serve(repo, { AGENTGOV_CONFIG: config });
    try {
      const scout = (await until(
        () => server.call('recon_scout', {}),
        (a) => (a as unknown as Scout).test_impact?.scheduler?.last_run?.kind === 'build',
        'the start-up build',
      )) as unknown as Scout;
      expect(scout.test_impact.scheduler).to.deep.include({ state: 'idle', niceness: 15 });
      expect(scout.test_impact.tests).to.equal(2);
      expect(scout.test_impact.coverage).to.equal('fresh');
    } finally {
      await server.client.close();
    }
  });

  it('by default nothing runs until a test-impact call: recon_scout says the scheduler has not started', async () => {
    const server = await serve(repoWith(), {});
    try {
      const scout = (await server.call('recon_scout', {})) as unknown as Scout;
      expect(scout.test_impact).to.deep.include({ coverage: 'none', tests: 0, scheduler: null });
    } finally {
      await server.client.close();
    }
  });
});
