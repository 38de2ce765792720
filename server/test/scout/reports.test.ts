import { join } from 'node:path';
import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { expect } from 'chai';
import { summarizeCoverage } from '../../src/scout/coverage.js';
import { summarizeLint } from '../../src/scout/lint.js';

describe('scout/coverage and scout/lint', () => {
  it('is null with a reason when no coverage report exists', () => {
    const result = summarizeCoverage(makeTempDir('agentgov-cov-'));
    expect(result.value).to.equal(null);
    expect(result.reason).to.contain('no coverage data');
  });

  const reports: [
    string,
    Record<string, string>,
    { line_rate: number; lines_covered: number; lines_total: number; files: number },
  ][] = [
    [
      'lcov',
      { 'coverage/lcov.info': 'TN:\nSF:a.ts\nLF:10\nLH:5\nend_of_record\nSF:b.ts\nLF:10\nLH:10\nend_of_record\n' },
      { line_rate: 0.75, lines_covered: 15, lines_total: 20, files: 2 },
    ],
    [
      'istanbul summary',
      {
        'coverage/coverage-summary.json': JSON.stringify({
          total: { lines: { total: 8, covered: 2, pct: 25 } },
          '/x/a.ts': {},
        }),
      },
      { line_rate: 0.25, lines_covered: 2, lines_total: 8, files: 1 },
    ],
    [
      'istanbul final',
      {
        'coverage/coverage-final.json': JSON.stringify({
          '/x/a.ts': {
            statementMap: { 0: { start: { line: 1 } }, 1: { start: { line: 1 } }, 2: { start: { line: 3 } } },
            s: { 0: 0, 1: 2, 2: 0 },
          },
        }),
      },
      { line_rate: 0.5, lines_covered: 1, lines_total: 2, files: 1 },
    ],
    [
      'coverage.py',
      { 'coverage.json': JSON.stringify({ totals: { covered_lines: 3, num_statements: 4 }, files: { 'a.py': {} } }) },
      { line_rate: 0.75, lines_covered: 3, lines_total: 4, files: 1 },
    ],
  ];
  for (const [format, files, expected] of reports) {
    it(`reads a ${format} report`, () => {
      const root = makeTempDir('agentgov-cov-');
      writeTree(root, files);
      expect(summarizeCoverage(root).value).to.deep.include({ ...expected, source: Object.keys(files)[0] });
    });
  }

  it('says so when a coverage report cannot be read', () => {
    const root = makeTempDir('agentgov-cov-');
    writeTree(root, { 'coverage.json': '{broken' });
    expect(summarizeCoverage(root)).to.deep.equal({
      value: null,
      reason: 'coverage reports exist but could not be read: coverage.json',
    });
  });

  it('summarizes an ESLint JSON report, worst files first', () => {
    const root = makeTempDir('agentgov-lint-');
    const report = [
      { filePath: join(root, 'src/a.ts'), errorCount: 1, warningCount: 2 },
      { filePath: join(root, 'src/b.ts'), errorCount: 3, warningCount: 0 },
      { filePath: join(root, 'src/c.ts'), errorCount: 0, warningCount: 0 },
    ];
    writeTree(root, { 'eslint-report.json': JSON.stringify(report) });
    expect(summarizeLint(root, []).value).to.deep.equal({
      errors: 4,
      warnings: 2,
      files_with_problems: 2,
      files_checked: 3,
      worst_files: [
        { path: 'src/b.ts', errors: 3, warnings: 0 },
        { path: 'src/a.ts', errors: 1, warnings: 2 },
      ],
      source: 'eslint-report.json',
    });
  });

  it('is null with a reason naming the loaded linters when no lint report exists', () => {
    const result = summarizeLint(makeTempDir('agentgov-lint-'), ['eslint']);
    expect(result.value).to.equal(null);
    expect(result.reason).to.contain('eslint').and.contain('checkpoint');
  });
});
