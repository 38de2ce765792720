import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Summary } from './coverage.js';

export interface LintSummary {
  errors: number;
  warnings: number;
  files_with_problems: number;
  files_checked: number;
  /** Files with the most errors, worst first (at most 5). */
  worst_files: { path: string; errors: number; warnings: number }[];
  source: string;
}

/** ESLint JSON reports (`eslint -f json -o …`) looked for. */
export const LINT_REPORTS = ['eslint-report.json', 'reports/eslint.json', '.eslint-report.json'];

interface EslintFileResult {
  filePath: string;
  errorCount: number;
  warningCount: number;
}

/**
 * Lint health from an ESLint JSON report when one exists; otherwise `null` with the reason (and which linters could
 * produce it).
 */
export function summarizeLint(root: string, linters: readonly string[]): Summary<LintSummary> {
  for (const report of LINT_REPORTS) {
    const file = join(root, report);
    if (!existsSync(file)) continue;
    let results: EslintFileResult[];
    try {
      results = JSON.parse(readFileSync(file, 'utf8')) as EslintFileResult[];
      if (!Array.isArray(results) || results.some((r) => typeof r?.errorCount !== 'number'))
        throw new Error('not an ESLint JSON report');
    } catch {
      return { value: null, reason: `${report} exists but is not an ESLint JSON report` };
    }
    const withProblems = results.filter((r) => r.errorCount + r.warningCount > 0);
    const worst = [...withProblems]
      .sort((a, b) => b.errorCount - a.errorCount || b.warningCount - a.warningCount)
      .slice(0, 5);
    return {
      value: {
        errors: results.reduce((n, r) => n + r.errorCount, 0),
        warnings: results.reduce((n, r) => n + r.warningCount, 0),
        files_with_problems: withProblems.length,
        files_checked: results.length,
        worst_files: worst.map((r) => ({
          path: relative(root, r.filePath).split('\\').join('/'),
          errors: r.errorCount,
          warnings: r.warningCount,
        })),
        source: report,
      },
      reason: null,
    };
  }
  const how = linters.length
    ? `the loaded linters (${linters.join(', ')}) run in \`checkpoint\``
    : 'no linter plugin is loaded';
  return { value: null, reason: `no lint results recorded: none of ${LINT_REPORTS.join(', ')} exists; ${how}` };
}
