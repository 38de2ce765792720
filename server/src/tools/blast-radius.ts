import type { LanguagePack, TestRunner } from '@agentgov/core';
import { z } from 'zod';
import { blastRadius, type BlastRadiusResult } from '../test-impact/blast-radius.js';
import type { CoverageStore } from '../test-impact/coverage-store.js';
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
import { defineTool, type ToolContext } from './tool.js';

const input = z
  .object({
    changed_files: z
      .array(z.string().min(1))
      .min(1)
      .max(1000)
      .describe('Repo-relative paths of changed files (against HEAD)'),
    max_hops: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(2)
      .describe(
        'Max call-graph hops from a changed definition. The tests of definitions up to this many calls away are added',
      ),
    budget: budgetParameter,
    offset: offsetParameter,
  })
  .strict();

export const blastRadiusTool = defineTool({
  name: 'blast_radius',
  group: 'Test Impact',
  readOnly: true,
  brief:
    'Ranks the tests that can fail because of changed files (per-test coverage, call graph, imports), ' +
    'with their commands. Use it after editing to run the few tests that matter instead of ' +
    'the whole suite.',
  description:
    'Which tests can fail because of a change: changed files → changed definitions ' +
    '(against HEAD) → tests whose per-test coverage hits them (distance 0) → ' +
    'tests covering their callers up to max_hops in the reference graph → test ' +
    'files reaching them through the import graph where coverage is missing or ' +
    'stale. Ranked, each with the command that runs it.',
  inputSchema: input,
  outputSchema: z
    .object({
      candidates: z.array(z.object({ distance: z.number().int(), confidence: z.number() }).passthrough()),
      changed: z.array(z.object({}).passthrough()),
      notes: z.array(z.string()),
      counts: z
        .object({
          candidates: z.number().int(),
          suite_tests: z.number().int(),
          by_distance: z.record(z.number().int()),
        })
        .passthrough(),
      test_impact: testImpactStatusSchema,
      page: pageSchema,
    })
    .passthrough(),
  returns:
    'One page of `candidates` (best first, as many as fit `budget` from `offset`; ' +
    '`page` {total, offset, shown, omitted, next_offset, more} says what was ' +
    'left out) ' +
    ('`candidates` [{test_id, file, distance, confidence, evidence ' +
      '{source: coverage|import-time|call-graph|import-graph, ' +
      'definitions, changed_lines_hit}, command, duration_ms}], `changed` [{path, ' +
      'status, changed_lines, definitions, coverage: fresh|stale|missing|not-applicable}], ' +
      '`notes` (missing or stale coverage, uncovered changed lines), `counts`, ' +
      'and `test_impact` (scheduler state and freshness).'),
  whenToUse:
    'After editing code, to run the few tests that can fail instead of the whole ' +
    'suite; run the first candidates first.',
  related: ['covering_tests', 'recon_line_coverage', 'checkpoint', 'semantic_diff'],
  errors: ['E_INDEX_NOT_READY', 'E_PATH_OUTSIDE_REPO', 'E_TEST_RUNNER_MISSING', 'E_TEST_CONFIG_INVALID'],
  example: { changed_files: ['src/math.ts'], max_hops: 2 },
  needsIndex: true,
  pathArguments: ['changed_files'],
  async handler(args, ctx): Promise<BlastRadiusResult & { test_impact: TestImpactStatus; page: Page }> {
    const files = args.changed_files.map((path) => ctx.resolveRepoPath(path).relative);
    const scheduler = schedulerFor(ctx);
    await scheduler?.started;
    const failure = schedulerFailure(scheduler, coverageStoreOf(ctx.index));
    if (failure) throw failure;
    const result = await blastRadiusIn(ctx, coverageStoreOf(ctx.index), scheduler?.runner(), files, args.max_hops);
    const test_impact = testImpactStatus(ctx, scheduler);
    const cap = itemCap(args.budget);
    const changed = headWithin(result.changed, cap / 2);
    const reserved = jsonCost(changed) + jsonCost(result.notes) + jsonCost(test_impact) + jsonCost(result.counts);
    const { items, page } = pageWithinBudget(result.candidates, {
      offset: args.offset,
      budgetTokens: args.budget,
      limit: null,
      cost: jsonCost,
      reserved,
      noun: 'candidate tests',
      narrower: 'fewer changed_files or a lower max_hops',
    });
    return { ...result, changed, candidates: items, test_impact, page };
  },
  render(result) {
    const lines = result.candidates.map(
      (c) =>
        `${c.distance}  ${c.confidence.toFixed(2)}  ` +
        `${c.test_id}  [${c.evidence.source}: ` +
        `${c.evidence.definitions.join(', ')}]\n     ` +
        `${c.command}`,
    );
    return [
      `${result.counts.candidates} candidate tests of ${result.counts.suite_tests} (distance  confidence  test):`,
      ...lines,
      ...(result.page.more ? [result.page.more] : []),
      ...result.notes.map((note) => `note: ${note}`),
      `test impact: ${result.test_impact.summary}`,
    ].join('\n');
  },
});

/**
 * blast_radius over this session's index and coverage store: a path is a test file when the store
 * knows tests in it or the runner says so (the runner answers from the project's config, a glob per
 * question: asked once per path).
 */
export function blastRadiusIn(
  ctx: ToolContext,
  store: CoverageStore,
  runner: TestRunner | undefined,
  changedFiles: string[],
  maxHops: number,
): Promise<BlastRadiusResult> {
  const knownTestFiles = new Set(store.allTests().map((test) => test.file));
  const asked = new Map<string, boolean>();
  const askRunner = (path: string): boolean => {
    if (!asked.has(path)) asked.set(path, runner?.isTestFile(ctx.repoRoot, path) ?? false);
    return asked.get(path)!;
  };
  return blastRadius({
    root: ctx.repoRoot,
    changedFiles,
    maxHops,
    store,
    languages: ctx.host.registries.languages.values() as LanguagePack[],
    defGraph: ctx.index.defGraph(),
    fileGraph: ctx.index.fileGraph(),
    definition: (uid) => ctx.index.definition(uid),
    runner,
    isTestFile: (path) => knownTestFiles.has(path) || askRunner(path),
  });
}
