import { existsSync, readFileSync } from 'node:fs';
import { AgentgovError } from '@agentgov/core';
import { z } from 'zod';
import { coverageStoreOf, schedulerFailure, schedulerFor } from '../test-impact/scheduler-for.js';
import { type TestImpactStatus, testImpactStatus, testImpactStatusSchema } from '../test-impact/status.js';
import { defineTool } from './tool.js';

const input = z
  .object({
    file_path: z.string().min(1).describe('Repo-relative file path'),
    line_start: z
      .number()
      .int()
      .min(1)
      .nullable()
      .default(null)
      .describe('Start line (1-based, inclusive); null = whole file'),
    line_end: z
      .number()
      .int()
      .min(1)
      .nullable()
      .default(null)
      .describe('End line (1-based, inclusive); null = whole file'),
    include_tests: z.boolean().default(false).describe('Name the tests hitting each line'),
  })
  .strict();

export interface LineCoverageResult {
  file_path: string;
  line_start: number;
  line_end: number;
  /**
   * `fresh`: taken at the file's current content; `stale`: at an earlier one (line numbers may be off); `missing`:
   * nothing stored.
   */
  coverage: 'fresh' | 'stale' | 'missing';
  covered: number[];
  /** Code lines in the range (not blank, not comment-only) that no test and no import ran. */
  uncovered: number[];
  /** Lines that ran only while test files loaded (module bodies, decorators). */
  import_time: number[];
  tests_by_line?: Record<string, string[]>;
  test_impact: TestImpactStatus;
}

const COMMENT = /^\s*(\/\/|\/\*|\*|#)/;

export const reconLineCoverageTool = defineTool({
  name: 'recon_line_coverage',
  group: 'Test Impact',
  readOnly: true,
  brief:
    'Covered and uncovered lines of a file or line range, optionally with the tests that hit each line. ' +
    'Use it to check whether the lines you change are tested.',
  description:
    'Covered and uncovered lines (1-based, inclusive) of a file or a line range, ' +
    'from per-test coverage; with include_tests, which tests hit each line.',
  inputSchema: input,
  outputSchema: z
    .object({
      file_path: z.string(),
      line_start: z.number().int(),
      line_end: z.number().int(),
      coverage: z.enum(['fresh', 'stale', 'missing']),
      covered: z.array(z.number().int()),
      uncovered: z.array(z.number().int()),
      import_time: z.array(z.number().int()),
      tests_by_line: z.record(z.array(z.string())).optional(),
      test_impact: testImpactStatusSchema,
    })
    .passthrough(),
  returns:
    '`covered`, `uncovered` (code lines no test ran), `import_time` (lines run ' +
    'while test files loaded), `tests_by_line` {line: [test ids]} with include_tests, ' +
    '`coverage` (fresh|stale|missing), and `test_impact` (scheduler state and ' +
    'freshness).',
  whenToUse: 'To see whether the lines you are about to change are tested at all, and by which tests.',
  related: ['covering_tests', 'blast_radius'],
  errors: [
    'E_INDEX_NOT_READY',
    'E_NOT_FOUND',
    'E_PATH_OUTSIDE_REPO',
    'E_INVALID_ARGUMENT',
    'E_TEST_RUNNER_MISSING',
    'E_TEST_CONFIG_INVALID',
  ],
  example: { file_path: 'src/math.ts', line_start: 10, line_end: 40, include_tests: true },
  needsIndex: true,
  pathArguments: ['file_path'],
  async handler(args, ctx): Promise<LineCoverageResult> {
    const path = ctx.resolveRepoPath(args.file_path);
    if (!existsSync(path.absolute))
      throw new AgentgovError('E_NOT_FOUND', `${path.relative} does not exist`, { file_path: path.relative });
    const text = readFileSync(path.absolute, 'utf8').split('\n');
    const start = args.line_start ?? 1;
    const end = Math.min(args.line_end ?? text.length, text.length);
    if (start > end)
      throw new AgentgovError('E_INVALID_ARGUMENT', `line_start ${start} is after line_end ${end}`, {
        argument: 'line_start',
      });
    const scheduler = schedulerFor(ctx);
    await scheduler?.started;
    const failure = schedulerFailure(scheduler, coverageStoreOf(ctx.index));
    if (failure) throw failure;
    const store = coverageStoreOf(ctx.index);
    store.forgetHashes();
    const hashes = store.coverageHashes(path.relative);
    const coverage =
      hashes.size === 0 ? 'missing' : hashes.has(store.currentHash(path.relative) ?? '') ? 'fresh' : 'stale';
    const hits = store.lineHits(path.relative, start, end);
    const covered = new Set(hits.map((h) => h.line));
    const uncovered: number[] = [];
    for (let line = start; line <= end; line++) {
      const source = text[line - 1] ?? '';
      if (!covered.has(line) && source.trim() !== '' && !COMMENT.test(source)) uncovered.push(line);
    }
    return {
      file_path: path.relative,
      line_start: start,
      line_end: end,
      coverage,
      covered: [...covered],
      uncovered: coverage === 'missing' ? [] : uncovered,
      import_time: hits.filter((h) => h.importTime && h.tests.length === 0).map((h) => h.line),
      ...(args.include_tests
        ? {
            tests_by_line: Object.fromEntries(hits.filter((h) => h.tests.length).map((h) => [String(h.line), h.tests])),
          }
        : {}),
      test_impact: testImpactStatus(ctx, scheduler),
    };
  },
  render(result) {
    const ranges = (lines: number[]) => lines.join(', ') || 'none';
    return [
      `${result.file_path}:${result.line_start}-${result.line_end} coverage ${result.coverage}`,
      `covered: ${ranges(result.covered)}`,
      `uncovered: ${ranges(result.uncovered)}`,
      `import time only: ${ranges(result.import_time)}`,
      `test impact: ${result.test_impact.summary}`,
    ].join('\n');
  },
});
