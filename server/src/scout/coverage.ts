import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CoverageSummary {
  /** Covered lines / total lines, 0..1. */
  line_rate: number;
  lines_covered: number;
  lines_total: number;
  files: number;
  /** The report it was read from (repo-relative). */
  source: string;
  format: 'istanbul-summary' | 'istanbul' | 'lcov' | 'coverage.py';
}

/** Either a summary or `null` with the reason, so an absent value is never ambiguous. */
export type Summary<T> = { value: T; reason: null } | { value: null; reason: string };

type Totals = { covered: number; total: number; files: number };

function istanbulSummary(json: Record<string, { lines?: { total: number; covered: number } }>): Totals | undefined {
  const total = json['total']?.lines;
  if (!total) return undefined;
  return { covered: total.covered, total: total.total, files: Object.keys(json).length - 1 };
}

function istanbulFinal(
  json: Record<string, { statementMap?: Record<string, { start: { line: number } }>; s?: Record<string, number> }>,
): Totals | undefined {
  let covered = 0;
  let total = 0;
  let files = 0;
  for (const file of Object.values(json)) {
    if (!file.statementMap || !file.s) return undefined;
    files++;
    const lines = new Map<number, boolean>();
    for (const [id, statement] of Object.entries(file.statementMap)) {
      const line = statement.start.line;
      lines.set(line, (lines.get(line) ?? false) || (file.s[id] ?? 0) > 0);
    }
    total += lines.size;
    covered += [...lines.values()].filter(Boolean).length;
  }
  return { covered, total, files };
}

function lcov(text: string): Totals | undefined {
  let covered = 0;
  let total = 0;
  let files = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('SF:')) files++;
    else if (line.startsWith('LF:')) total += Number(line.slice(3)) || 0;
    else if (line.startsWith('LH:')) covered += Number(line.slice(3)) || 0;
  }
  return files > 0 ? { covered, total, files } : undefined;
}

function coveragePy(json: {
  totals?: { covered_lines: number; num_statements: number };
  files?: object;
}): Totals | undefined {
  if (!json.totals) return undefined;
  return {
    covered: json.totals.covered_lines,
    total: json.totals.num_statements,
    files: Object.keys(json.files ?? {}).length,
  };
}

/** Report files looked for, in order: the first that exists and parses wins. */
export const COVERAGE_REPORTS: { path: string; format: CoverageSummary['format'] }[] = [
  { path: 'coverage/coverage-summary.json', format: 'istanbul-summary' },
  { path: 'coverage/coverage-final.json', format: 'istanbul' },
  { path: 'coverage/lcov.info', format: 'lcov' },
  { path: 'lcov.info', format: 'lcov' },
  { path: 'coverage.json', format: 'coverage.py' },
];

function parse(format: CoverageSummary['format'], text: string): Totals | undefined {
  if (format === 'lcov') return lcov(text);
  const json = JSON.parse(text) as never;
  if (format === 'istanbul-summary') return istanbulSummary(json);
  if (format === 'istanbul') return istanbulFinal(json);
  return coveragePy(json);
}

/** The repository's test coverage rate from the first coverage report found (istanbul, lcov, coverage.py JSON). */
export function summarizeCoverage(root: string): Summary<CoverageSummary> {
  const unreadable: string[] = [];
  for (const report of COVERAGE_REPORTS) {
    const file = join(root, report.path);
    if (!existsSync(file)) continue;
    try {
      const totals = parse(report.format, readFileSync(file, 'utf8'));
      if (!totals) {
        unreadable.push(report.path);
        continue;
      }
      const rate = totals.total > 0 ? totals.covered / totals.total : 0;
      return {
        value: {
          line_rate: Math.round(rate * 10000) / 10000,
          lines_covered: totals.covered,
          lines_total: totals.total,
          files: totals.files,
          source: report.path,
          format: report.format,
        },
        reason: null,
      };
    } catch {
      unreadable.push(report.path);
    }
  }
  const looked = COVERAGE_REPORTS.map((r) => r.path).join(', ');
  if (unreadable.length)
    return { value: null, reason: `coverage reports exist but could not be read: ${unreadable.join(', ')}` };
  return {
    value: null,
    reason: `no coverage data: none of ${looked} exists (run the tests with coverage to produce one)`,
  };
}
