import { AgentgovError } from '@agentgov/core';
import { z } from 'zod';
import { coverageStoreOf, schedulerFailure, schedulerFor } from '../test-impact/scheduler-for.js';
import { type TestImpactStatus, testImpactStatus, testImpactStatusSchema } from '../test-impact/status.js';
import {
  budgetParameter,
  headWithin,
  itemCap,
  jsonCost,
  offsetParameter,
  pageSchema,
  pageWithinBudget,
  type Page,
} from './answer-budget.js';
import { defineTool } from './tool.js';

const input = z
  .object({
    file_path: z.string().min(1).describe('Repo-relative file path'),
    budget: budgetParameter,
    offset: offsetParameter,
  })
  .strict();

export interface CoveringTest {
  test_id: string;
  file: string;
  /** Lines of the definition this test ran. */
  lines_hit: number;
  command: string;
}

export interface CoveringTestsResult {
  file_path: string;
  /**
   * `fresh`: coverage taken at the file's current content; `stale`: at an earlier one (lines may be off); `missing`: no
   * test covered it.
   */
  coverage: 'fresh' | 'stale' | 'missing';
  /** def_uid → the definition and the tests covering it (most lines first). */
  definitions: Record<
    string,
    {
      qualified_name: string;
      kind: string;
      start_line: number;
      end_line: number;
      tests: CoveringTest[];
      tests_total?: number;
    }
  >;
  /** Whether the file's import-time lines (module body) ran when test files loaded it. */
  import_time_lines: number;
  test_impact: TestImpactStatus;
  /** The definitions listed: as many as fit the budget from `offset`, in file order. */
  page: Page;
}

export const coveringTestsTool = defineTool({
  name: 'covering_tests',
  group: 'Test Impact',
  readOnly: true,
  brief:
    'Maps each definition (function, class, method) of a file to the tests that run it, from per-test ' +
    'coverage. Use it before changing code to know which tests exercise it.',
  description:
    "Maps each definition of a file (def_uid) to the tests whose per-test coverage runs it, with each test's command.",
  inputSchema: input,
  outputSchema: z
    .object({
      file_path: z.string(),
      coverage: z.enum(['fresh', 'stale', 'missing']),
      definitions: z.record(
        z
          .object({
            qualified_name: z.string(),
            kind: z.string(),
            start_line: z.number().int(),
            end_line: z.number().int(),
            tests: z.array(z.object({}).passthrough()),
          })
          .passthrough(),
      ),
      import_time_lines: z.number().int(),
      test_impact: testImpactStatusSchema,
      page: pageSchema,
    })
    .passthrough(),
  returns:
    '`definitions` {def_uid: {qualified_name, kind, start_line, end_line, tests ' +
    "[{test_id, file, lines_hit, command}], tests_total when a definition's tests " +
    'were cut}}, ' +
    ('`coverage` (fresh|stale|missing), `import_time_lines`, `test_impact` (scheduler ' +
      'state and freshness), and `page` {total, offset, shown, omitted, next_offset, ' +
      'more}: ') +
    'the definitions listed are as many as fit `budget` (tokens, default 3000) from `offset`, in file order.',
  whenToUse: 'Before changing a function, to know which tests exercise it; or to find a definition no test runs.',
  related: ['blast_radius', 'recon_line_coverage'],
  errors: ['E_INDEX_NOT_READY', 'E_NOT_FOUND', 'E_PATH_OUTSIDE_REPO', 'E_TEST_RUNNER_MISSING', 'E_TEST_CONFIG_INVALID'],
  example: { file_path: 'src/math.ts' },
  needsIndex: true,
  pathArguments: ['file_path'],
  async handler(args, ctx): Promise<CoveringTestsResult> {
    const path = ctx.resolveRepoPath(args.file_path).relative;
    const scheduler = schedulerFor(ctx);
    await scheduler?.started;
    const failure = schedulerFailure(scheduler, coverageStoreOf(ctx.index));
    if (failure) throw failure;
    const store = coverageStoreOf(ctx.index);
    const defs = ctx.index.definitions({ path });
    if (!defs.length && !ctx.index.files().some((file) => file.path === path))
      throw new AgentgovError('E_NOT_FOUND', `${path} is not an indexed file`, { file_path: path });
    store.forgetHashes();
    const hashes = store.coverageHashes(path);
    const coverage = hashes.size === 0 ? 'missing' : hashes.has(store.currentHash(path) ?? '') ? 'fresh' : 'stale';
    const runner = scheduler?.runner();
    const all: [string, CoveringTestsResult['definitions'][string]][] = [];
    const cap = itemCap(args.budget);
    for (const def of defs) {
      const tests = [...store.testsCoveringRange(path, def.start_line, def.end_line)].map(([testId, lines]) => {
        const stored = store.testCase(testId);
        // A test known only from an imported report: its file is the id's first part (node id or title path).
        const file = stored?.file ?? testId.split(/::| > /)[0]!;
        return {
          test_id: testId,
          file,
          lines_hit: new Set(lines).size,
          command:
            stored && runner?.testCommand
              ? runner.testCommand({ id: testId, file, titlePath: stored.title_path })
              : (runner?.command([file]) ?? file),
        };
      });
      tests.sort((a, b) => b.lines_hit - a.lines_hit || a.test_id.localeCompare(b.test_id));
      const entry = {
        qualified_name: def.qualified_name,
        kind: def.kind,
        start_line: def.start_line,
        end_line: def.end_line,
        tests,
      };
      if (jsonCost(entry) > cap) {
        const shown = headWithin(tests, cap);
        all.push([def.def_uid, { ...entry, tests: shown, tests_total: tests.length }]);
      } else all.push([def.def_uid, entry]);
    }
    const test_impact = testImpactStatus(ctx, scheduler);
    const { items, page } = pageWithinBudget(all, {
      offset: args.offset,
      limit: null,
      budgetTokens: args.budget,
      cost: jsonCost,
      reserved: jsonCost(test_impact),
      noun: 'definitions',
      narrower: 'recon_line_coverage on a line range',
    });
    return {
      file_path: path,
      coverage,
      definitions: Object.fromEntries(items),
      import_time_lines: store.importTimeLines(path).size,
      test_impact,
      page,
    };
  },
  render(result) {
    const lines = Object.entries(result.definitions).map(
      ([uid, d]) =>
        `${d.qualified_name} (${d.kind}, ${d.start_line}-` +
        `${d.end_line}) [${uid}]: ${d.tests.length ? d.tests.map((t) => t.test_id).join('; ') : 'no covering test'}` +
        `${d.tests_total ? ` … (${d.tests.length} of ${d.tests_total} tests)` : ''}`,
    );
    return [
      `${result.file_path}: coverage ${result.coverage}`,
      ...lines,
      ...(result.page.more ? [result.page.more] : []),
      `test impact: ${result.test_impact.summary}`,
    ].join('\n');
  },
});
