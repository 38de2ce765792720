import { existsSync, readFileSync, statSync } from 'node:fs';
import { AgentgovError } from '@agentgov/core';
import { z } from 'zod';
import { type CoverageReportFormat, parseCoverageReport } from '../test-impact/coverage-reports.js';
import { coverageStoreOf } from '../test-impact/scheduler-for.js';
import { CHANGED_DURING_RUN } from '../test-impact/test-scheduler.js';
import { defineTool } from './tool.js';

const input = z
  .object({
    report_path: z
      .string()
      .min(1)
      .describe(
        'Repo-relative path of the report. istanbul coverage-final.json, lcov.info, ' +
          'or coverage.py JSON (`coverage json --show-contexts`)',
      ),
    format: z
      .enum(['istanbul', 'lcov', 'coverage.py'])
      .nullable()
      .default(null)
      .describe('Report format; null = detect'),
  })
  .strict();

export interface CoverageImportResult {
  report_path: string;
  format: CoverageReportFormat;
  /** `test`: lines attributed to test cases (coverage.py contexts); `file`: the report covers the suite as a whole. */
  granularity: 'test' | 'file';
  /** Source files of the report inside the repository, and those stored (the rest no longer exist). */
  files: { in_report: number; stored: number };
  /** Test cases the report attributes lines to (0 for a per-file report). */
  tests: number;
  /** (scope, id, file, line) facts stored. */
  facts: number;
  /** Files changed after the report was written: stored, but stale until their tests run again. */
  stale_files: string[];
  /** Parts of the report that could not be used, counted with why. */
  skipped: { count: number; items: { file?: string; reason: string }[] };
}

const SHOWN_SKIPS = 50;

export const coverageImportTool = defineTool({
  name: 'coverage_import',
  group: 'Test Impact',
  readOnly: false,
  // It writes agentgov's index, never the repository, and runs no project code.
  mutates: () => false,
  brief:
    'Imports an existing coverage report (istanbul JSON, lcov, coverage.py JSON) so the test-impact tools ' +
    'can use it when no test-runner plugin collects coverage.',
  description:
    'Ingests an existing coverage report (istanbul coverage-final.json, lcov.info, ' +
    "coverage.py JSON) into the index's coverage facts, stamped with each covered " +
    "file's content hash, for repositories whose test runner has no plugin. coverage.py " +
    'contexts that are pytest node ids become per-test coverage; everything else ' +
    'counts for the suite as a whole (per file).',
  inputSchema: input,
  outputSchema: z
    .object({
      report_path: z.string(),
      format: z.enum(['istanbul', 'lcov', 'coverage.py']),
      granularity: z.enum(['test', 'file']),
      files: z.object({ in_report: z.number().int(), stored: z.number().int() }),
      tests: z.number().int(),
      facts: z.number().int(),
      stale_files: z.array(z.string()),
      skipped: z.object({
        count: z.number().int(),
        items: z.array(z.object({ file: z.string().optional(), reason: z.string() })),
      }),
    })
    .passthrough(),
  returns:
    '`format`, `granularity` (test|file), `files` {in_report, stored}, `tests`, ' +
    '`facts`, `stale_files` (changed since the report was written), `skipped` ' +
    '{count, items [{file, reason}]} for malformed or outside-the-repository ' +
    'parts.',
  whenToUse:
    'When the project has a coverage report from its own tooling (jest, c8, nyc, ' +
    'pytest-cov) and no test-runner plugin, so covering_tests, recon_line_coverage ' +
    'and blast_radius can use it.',
  related: ['recon_line_coverage', 'covering_tests', 'blast_radius'],
  errors: ['E_INDEX_NOT_READY', 'E_NOT_FOUND', 'E_PATH_OUTSIDE_REPO', 'E_INVALID_ARGUMENT'],
  example: { report_path: 'coverage/coverage-final.json' },
  needsIndex: true,
  pathArguments: ['report_path'],
  async handler(args, ctx): Promise<CoverageImportResult> {
    const report = ctx.resolveRepoPath(args.report_path);
    if (!existsSync(report.absolute) || !statSync(report.absolute).isFile())
      throw new AgentgovError('E_NOT_FOUND', `${report.relative} does not exist`, { report_path: report.relative });
    const parsed = parseCoverageReport(
      ctx.repoRoot,
      report.relative,
      readFileSync(report.absolute, 'utf8'),
      args.format ?? undefined,
    );
    const store = coverageStoreOf(ctx.index);
    store.forgetHashes();
    const writtenAt = statSync(report.absolute).mtimeMs;
    const stale = new Set<string>();
    const hashOf = (path: string): string | null => {
      const hash = store.currentHash(path);
      if (hash === null) return null;
      // A file edited after the report was written is not the version it measured.
      if (statSync(`${ctx.repoRoot}/${path}`).mtimeMs > writtenAt) {
        stale.add(path);
        return CHANGED_DURING_RUN;
      }
      return hash;
    };
    const { facts } = store.recordCoverage(`import:${parsed.format}`, parsed.coverage, hashOf);
    const coveredFiles = new Set(parsed.coverage.flatMap((entry) => entry.files.map((f) => f.file)));
    const missing = [...coveredFiles].filter((file) => store.currentHash(file) === null);
    const skipped = [...parsed.skipped, ...missing.map((file) => ({ file, reason: 'not in the repository any more' }))];
    if (skipped.length)
      ctx.logger.warn('coverage import skipped parts of the report', {
        report: report.relative,
        count: skipped.length,
      });
    return {
      report_path: report.relative,
      format: parsed.format,
      granularity: parsed.granularity,
      files: { in_report: parsed.files, stored: coveredFiles.size - missing.length },
      tests: parsed.coverage.filter((entry) => entry.scope === 'test').length,
      facts,
      stale_files: [...stale].sort(),
      skipped: { count: skipped.length, items: skipped.slice(0, SHOWN_SKIPS) },
    };
  },
  render(result) {
    return [
      `${result.report_path} (${result.format}, coverage per ` +
        `${result.granularity}): ${result.facts} facts for ` +
        `${result.files.stored} of ${result.files.in_report} files` +
        `${result.tests ? `, ${result.tests} tests` : ''}`,
      result.stale_files.length ? `stale (changed after the report was written): ${result.stale_files.join(', ')}` : '',
      result.skipped.count
        ? `skipped ${result.skipped.count}: ` +
          result.skipped.items.map((s) => `${s.file ?? '(report)'}: ${s.reason}`).join('; ')
        : 'nothing skipped',
    ]
      .filter(Boolean)
      .join('\n');
  },
});
