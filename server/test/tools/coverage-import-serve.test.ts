import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { expect } from 'chai';
import { ServeClient } from '../checkpoint/serve-client.js';
import { gitInit } from '../recon/fixture-repo.js';

/** A project whose tests run under a runner agentgov has no plugin for (jest), with reports its own tooling wrote. */
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'demo', private: true, scripts: { test: 'jest --coverage' } }),
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
  'calc/math.py': `def clamp(value, low, high):
    if value < low:
        return low
    return min(value, high)


def unused(x):
    return x * 2
`,
  'checks/check_math.py': 'from calc.math import clamp\n\n\ndef test_clamp():\n    assert clamp(5, 0, 10) == 5\n',
};

const LCOV = [
  'TN:',
  `SF:src/math.js`,
  'DA:1,1',
  'DA:3,1',
  'DA:4,3',
  'DA:5,3',
  'DA:6,2',
  'DA:10,0',
  'DA:11,0',
  'DA:14,1',
  'DA:oops',
  'end_of_record',
  'SF:/somewhere/else.js',
  'DA:1,1',
  'end_of_record',
  '',
].join('\n');

const COVERAGE_PY = JSON.stringify({
  meta: { version: '7.6.1', show_contexts: true },
  files: {
    'calc/math.py': {
      executed_lines: [1, 2, 4, 7],
      contexts: {
        1: [''],
        7: [''],
        2: ['checks/check_math.py::test_clamp|run'],
        4: ['checks/check_math.py::test_clamp|run'],
      },
    },
  },
});

describe('coverage_import over MCP (a project whose runner has no plugin)', function () {
  this.timeout(300_000);
  let serve: ServeClient;
  let repo: string;

  before(async () => {
    repo = makeTempDir('agentgov-import-');
    writeTree(repo, FILES);
    gitInit(repo);
    // The reports are written after the sources (as a test run would): the facts are fresh.
    writeTree(repo, {
      'coverage/lcov.info': LCOV,
      'coverage/coverage.json': COVERAGE_PY,
      'coverage/broken.json': '{"files": {',
    });
    serve = await ServeClient.start(repo);
  });
  after(async () => serve?.close());

  it('answers the missing runner before any report is imported', async () => {
    const { data } = await serve.call('recon_line_coverage', { file_path: 'src/math.js' });
    expect(data.error?.code).to.equal('E_TEST_RUNNER_MISSING');
  });

  it('imports lcov per file, counting what it skipped; recon_line_coverage then answers from it', async () => {
    const { data, text } = await serve.call('coverage_import', { report_path: 'coverage/lcov.info' });
    expect(data.error, text).to.equal(undefined);
    expect(data).to.deep.include({
      format: 'lcov',
      granularity: 'file',
      files: { in_report: 1, stored: 1 },
      tests: 0,
      facts: 6,
      stale_files: [],
    });
    expect(data['skipped']).to.deep.equal({
      count: 2,
      items: [
        { file: 'src/math.js', reason: '1 malformed DA record(s)' },
        { file: '/somewhere/else.js', reason: 'outside the repository' },
      ],
    });
    const { data: lines } = await serve.call('recon_line_coverage', { file_path: 'src/math.js' });
    expect(lines.error).to.equal(undefined);
    expect(lines).to.deep.include({ coverage: 'fresh', covered: [1, 3, 4, 5, 6, 14] });
    expect(lines['uncovered']).to.include.members([10, 11]);
  });

  it('imports coverage.py contexts as per-test coverage: covering_tests names the test of clamp', async () => {
    const { data } = await serve.call('coverage_import', { report_path: 'coverage/coverage.json' });
    expect(data).to.deep.include({
      format: 'coverage.py',
      granularity: 'test',
      tests: 1,
      skipped: { count: 0, items: [] },
    });
    const { data: covering } = await serve.call('covering_tests', { file_path: 'calc/math.py' });
    expect(covering.error).to.equal(undefined);
    const defs = Object.values(
      covering['definitions'] as Record<string, { qualified_name: string; tests: { test_id: string; file: string }[] }>,
    );
    expect(defs.find((d) => d.qualified_name === 'clamp')!.tests.map((t) => [t.test_id, t.file])).to.deep.equal([
      ['checks/check_math.py::test_clamp', 'checks/check_math.py'],
    ]);
    expect(defs.find((d) => d.qualified_name === 'unused')!.tests).to.deep.equal([]);
  });

  it('marks files edited after the report was written as stale', async () => {
    const path = join(repo, 'src/math.js');
    writeFileSync(path, readFileSync(path, 'utf8').replace('return value;', 'return value; // edited'));
    const { data } = await serve.call('coverage_import', { report_path: 'coverage/lcov.info' });
    expect(data['stale_files']).to.deep.equal(['src/math.js']);
    const { data: lines } = await serve.call('recon_line_coverage', { file_path: 'src/math.js' });
    expect(lines['coverage']).to.equal('stale');
  });

  it('refuses malformed reports and paths outside the repository with clear errors', async () => {
    const broken = await serve.call('coverage_import', { report_path: 'coverage/broken.json' });
    expect(broken.data.error?.code).to.equal('E_INVALID_ARGUMENT');
    expect(broken.data.error?.message).to.match(/coverage\/broken\.json is not valid JSON/);
    const outside = await serve.call('coverage_import', { report_path: '../elsewhere/lcov.info' });
    expect(outside.data.error?.code).to.equal('E_PATH_OUTSIDE_REPO');
    const missing = await serve.call('coverage_import', { report_path: 'coverage/none.info' });
    expect(missing.data.error?.code).to.equal('E_NOT_FOUND');
  });
});
