import { AgentgovError, type LintProblem, type TestRunner } from '@agentgov/core';
import type { ToolContext } from '../tools/tool.js';
import { summarizeCoverage, type CoverageSummary } from '../scout/coverage.js';
import { commitFiles, pushBranch, type CommitOutcome, type GitDeadline, type PushOutcome } from './git-step.js';
import { refuseOperationInProgress, requireChangedFiles, requireCommitPossible } from './git-state.js';
import { runLint, type LinterOutcome } from './lint-step.js';
import type { CoverageStore } from '../test-impact/coverage-store.js';
import { coverageCandidates, coverageFor, type CoverageCandidates } from './coverage-selection.js';
import {
  detectRunners,
  runnerOf,
  selectByImports,
  type DetectedRunner,
  type SelectedTestFile,
  type TestSelection,
} from './test-selection.js';
import { runHops, type CachedFile, type HopOutcome, type TestFailure } from './test-step.js';
import { runningScheduler } from '../test-impact/scheduler-for.js';

/** Lint problems listed one per line; past this many the answer counts them per rule instead. */
export const PROBLEMS_SHOWN = 20;
/** Failing tests shown with message and stack. */
export const FAILURES_SHOWN = 10;

export interface CheckpointArgs {
  changed_files: string[];
  lint: boolean;
  autofix: boolean;
  tests: boolean;
  test_filter?: string | null;
  max_test_hops?: number | null;
  commit_message?: string | null;
  push: boolean;
  include_test_impact: boolean;
}

export interface LintSection {
  linters: LinterOutcome[];
  errors: number;
  warnings: number;
  /** `path:line:col rule message`, the first PROBLEMS_SHOWN problems, errors first. */
  problems: string[];
  /** Problems left out of `problems`. */
  more: number;
  /** Problem counts per rule, most frequent first (when some were left out). */
  by_rule?: Record<string, number>;
  fixed_files: string[];
}

export interface TestSection {
  /**
   * How distance 0 was chosen: per-test coverage (blast_radius) for the changed files it covers, else the import graph.
   */
  selection: 'coverage' | 'import_graph';
  max_hops: number;
  runners: string[];
  hops: HopOutcome[];
  passed: number;
  failed: number;
  skipped: number;
  failures: TestFailure[];
  file_errors: { file: string; output: string }[];
  /** Background results reused instead of running (still true: nothing they covered changed), with their age. */
  cached: { used: number; reason: string; tests?: { id: string; status: string; age_s: number }[] };
  /** Why nothing (or not everything) ran, and what to pass to reach more tests. */
  note?: string;
}

/**
 * PASS: something checked the change and nothing failed. FAIL: a check failed (or the commit did not
 * happen). NOTHING CHECKED: nothing failed because nothing ran: no linter linted a file and no test ran.
 */
export type Verdict = 'PASS' | 'FAIL' | 'NOTHING CHECKED';

/** Default deadline of one git command of the commit or push step, with its hooks. */
export const HOOK_TIMEOUT_S = 120;

export interface CheckpointResult {
  /** Nothing failed (and the commit and push happened when asked); `verdict` says whether anything was checked. */
  ok: boolean;
  verdict: Verdict;
  summary: string;
  changed_files: string[];
  lint: LintSection | null;
  tests: TestSection | null;
  commit: CommitOutcome | null;
  push: PushOutcome | null;
  /** Steps that did not run, and why. */
  skipped: { step: string; reason: string }[];
  test_impact?: {
    candidates: { file: string; runner: string; distance: number; reaches: string }[];
    coverage: CoverageSummary | null;
    coverage_reason: string | null;
  };
  /** Wall time of each step that ran: where a slow checkpoint spent it. */
  durations_ms: { lint?: number; test_selection?: number; tests?: number; commit?: number; push?: number };
}

function lintSection(step: Awaited<ReturnType<typeof runLint>>, autofix: boolean): LintSection {
  const ordered = [...step.problems].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  const line = (p: LintProblem) =>
    `${p.path}:${p.line}:${p.column} ${p.rule} ` +
    `${p.message}${p.severity === 'warning' ? ' (warning)' : ''}` +
    `${!autofix && p.fixable ? ' (fixable)' : ''}`;
  const errors = step.problems.filter((p) => p.severity === 'error').length;
  const section: LintSection = {
    linters: step.linters,
    errors,
    warnings: step.problems.length - errors,
    problems: ordered.slice(0, PROBLEMS_SHOWN).map(line),
    more: Math.max(0, ordered.length - PROBLEMS_SHOWN),
    fixed_files: step.fixed_files,
  };
  if (section.more > 0) {
    const counts = new Map<string, number>();
    for (const p of step.problems) counts.set(p.rule, (counts.get(p.rule) ?? 0) + 1);
    section.by_rule = Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  }
  return section;
}

function beyondNote(selection: TestSelection, maxHops: number, selected: number): string | undefined {
  const next = selection.beyond[0];
  if (!next)
    return selected === 0 ? 'no test file imports the changed files, directly or through other files.' : undefined;
  const reach =
    `${next.files} more test file(s) reach the changed files at distance ` +
    `${next.distance}; pass max_test_hops: ` +
    `${next.distance} to run them`;
  return `${selected === 0 ? `no test file imports the changed files within ${maxHops} hop(s); ${reach}` : reach}.`;
}

/** Hop 0 from coverage for the changed files it covers, the import graph for the rest and for farther hops. */
function mergeSelection(
  selection: TestSelection,
  coverage: CoverageCandidates,
  detected: DetectedRunner[],
  root: string,
): SelectedTestFile[][] {
  const first: SelectedTestFile[] = [];
  for (const file of [...coverage.byFile.keys()].sort()) {
    const runner = runnerOf(detected, root, file);
    if (runner) first.push({ file, runner: runner.name, distance: 0, reaches: 'coverage' });
  }
  const taken = new Set(first.map((s) => s.file));
  for (const s of selection.hops[0] ?? [])
    if (!coverage.covered.has(s.reaches) && !taken.has(s.file)) (taken.add(s.file), first.push(s));
  return [first, ...selection.hops.slice(1).map((hop) => hop.filter((s) => !taken.has(s.file)))];
}

/**
 * A test file's stored results when every one of them still holds: each covered a changed file at
 * its current content, and nothing it covered changed since (none with a test_filter, none for a
 * changed test file).
 */
function cachedResults(
  store: CoverageStore,
  coverage: CoverageCandidates | undefined,
  changed: Set<string>,
  args: CheckpointArgs,
) {
  return (file: string): CachedFile | undefined => {
    if (args.test_filter || changed.has(file)) return undefined;
    const ids = coverage?.byFile.get(file) ?? store.testsOfFile(file).map((t) => t.test_id);
    if (ids.length === 0) return undefined;
    const tests: CachedFile['tests'] = [];
    for (const id of ids) {
      const fresh = store.freshResult(id);
      // only a result that ran on the current version of a changed file says anything about the change
      if (!fresh || ![...changed].some((path) => fresh.covered.has(path))) return undefined;
      tests.push({ id, status: fresh.status, run_at: fresh.run_at, failure: fresh.failure });
    }
    return { tests };
  };
}

async function testStep(
  args: CheckpointArgs,
  changed: string[],
  maxHops: number,
  ctx: ToolContext,
  skipped: CheckpointResult['skipped'],
  durations: CheckpointResult['durations_ms'],
): Promise<{ section: TestSection | null; blocking: boolean; selection?: TestSelection }> {
  const started = performance.now();
  const runners = ctx.host.registries.testRunners.values();
  const detected = await detectRunners(runners, ctx.repoRoot);
  if (detected.length === 0) {
    const known = runners.map((r) => r.name).join(', ') || 'none loaded';
    skipped.push({ step: 'tests', reason: `no test runner recognises this project (runners: ${known})` });
    return { section: null, blocking: false };
  }
  await ctx.index.refresh();
  const store = coverageFor(ctx);
  const coverage = await coverageCandidates(ctx, store, changed);
  const selection = selectByImports(ctx.index, detected, ctx.repoRoot, changed, maxHops);
  const byCoverage = coverage !== undefined && coverage.covered.size > 0;
  const hops = byCoverage ? mergeSelection(selection, coverage, detected, ctx.repoRoot) : selection.hops;
  const byName = new Map<string, TestRunner>(detected.map((d) => [d.runner.name, d.runner]));
  durations.test_selection = Math.round(performance.now() - started);
  const run = await timed(durations, 'tests', () =>
    runHops(hops, byName, ctx.repoRoot, {
      nameFilter: args.test_filter ?? undefined,
      signal: ctx.signal,
      cached: cachedResults(store, byCoverage ? coverage : undefined, new Set(changed), args),
    }),
  );
  const sum = (key: 'passed' | 'failed' | 'skipped') => run.hops.reduce((n, h) => n + h[key], 0);
  const oldest = run.cached.reduce((max, c) => Math.max(max, c.age_s), 0);
  const section: TestSection = {
    selection: byCoverage ? 'coverage' : 'import_graph',
    max_hops: maxHops,
    runners: detected.map((d) => d.runner.name),
    hops: run.hops,
    passed: sum('passed'),
    failed: sum('failed'),
    skipped: sum('skipped'),
    failures: run.failures.slice(0, FAILURES_SHOWN),
    file_errors: run.file_errors,
    cached: run.cached.length
      ? {
          used: run.cached.length,
          reason:
            `background results still true for the tests below (oldest ` +
            `${oldest} s): every file they covered is unchanged since they ran`,
          tests: run.cached.slice(0, FAILURES_SHOWN * 2),
        }
      : {
          used: 0,
          reason: store.hasCoverage()
            ? 'no stored result still holds for the selected tests (a file they cover changed ' +
              'since they ran, or they never ran)'
            : 'no background results yet: the test scheduler is building coverage',
        },
  };
  const notes = [beyondNote(selection, maxHops, hops.flat().length), ...(coverage?.notes ?? [])].filter(
    (n): n is string => Boolean(n),
  );
  if (notes.length) section.note = notes.join(' ');
  return { section, blocking: run.blocking, selection };
}

function summaryOf(result: CheckpointResult): string {
  const parts: string[] = [];
  const lint = result.lint;
  if (lint && lint.linters.every((l) => l.status === 'not_applicable')) parts.push('lint: no linter applies');
  else if (lint) {
    const fixed = lint.fixed_files.length ? `, ${lint.fixed_files.length} file(s) fixed` : '';
    parts.push(`lint: ${lint.errors} error(s), ${lint.warnings} warning(s)${fixed}`);
  }
  const noRunner = result.skipped.some((s) => s.step === 'tests' && s.reason !== 'tests: false');
  if (!result.tests && noRunner) parts.push('tests: no runner applies');
  if (result.tests)
    parts.push(
      `tests: ${result.tests.passed} passed, ${result.tests.failed} failed` +
        (result.tests.file_errors.length ? `, ${result.tests.file_errors.length} file error(s)` : ''),
    );
  if (result.commit)
    parts.push(
      result.commit.committed
        ? `committed ${result.commit.sha?.slice(0, 12)}`
        : `not committed: ${result.commit.reason}`,
    );
  if (result.push) parts.push(`pushed ${result.push.branch} to origin`);
  return `${result.verdict} — ${parts.join(' · ') || 'lint and tests were off'}`;
}

/** Whether anything looked at the change: a linter that linted files, or a test that ran (live or reused). */
function checkedAnything(result: CheckpointResult): boolean {
  const linted = result.lint?.linters.some((l) => l.status === 'ran' && (l.files_checked ?? 0) > 0) ?? false;
  const tested = result.tests ? result.tests.passed + result.tests.failed + result.tests.file_errors.length > 0 : false;
  return linted || tested;
}

/**
 * The checkpoint, in the spec's order: lint the repository (auto-fixing) → tests nearest first
 * through the import graph → commit (hooks run) when everything passed and a message was given →
 * push when asked.
 */
export async function runCheckpoint(args: CheckpointArgs, ctx: ToolContext): Promise<CheckpointResult> {
  const changed = [...new Set(args.changed_files.map((f) => ctx.resolveRepoPath(f).relative))].sort();
  const maxHops = args.max_test_hops ?? (args.commit_message ? 2 : 0);
  // refused before anything runs: a merge in the middle, a file that is not there, no one to commit as
  await refuseOperationInProgress(ctx.repoRoot);
  await requireChangedFiles(ctx.repoRoot, changed);
  if (args.commit_message) await requireCommitPossible(ctx.repoRoot, changed);
  const result: CheckpointResult = {
    ok: true,
    verdict: 'PASS',
    summary: '',
    changed_files: changed,
    lint: null,
    tests: null,
    commit: null,
    push: null,
    skipped: [],
    durations_ms: {},
  };
  // The agent waits on this checkpoint: the background test scheduler pauses (its running batch is
  // stopped and queued again) until the checks are done, so the two do not share the machine.
  const release = args.lint || args.tests ? runningScheduler(ctx.index)?.hold() : undefined;
  let selection: TestSelection | undefined;
  try {
    selection = await checks(args, ctx, changed, maxHops, result);
  } finally {
    release?.();
  }
  return finish(args, ctx, changed, result, selection);
}

/** Lint, then tests: what decides whether the checkpoint passes. */
async function checks(
  args: CheckpointArgs,
  ctx: ToolContext,
  changed: string[],
  maxHops: number,
  result: CheckpointResult,
): Promise<TestSelection | undefined> {
  let blocking = false;
  let selection: TestSelection | undefined;
  if (args.lint) {
    const step = await timed(result.durations_ms, 'lint', () =>
      runLint(ctx.host.registries.linters.values(), ctx.repoRoot, args.autofix, ctx.signal),
    );
    result.lint = lintSection(step, args.autofix);
    blocking ||= step.blocking;
    if (step.linters.length === 0) result.skipped.push({ step: 'lint', reason: 'no linter plugin is loaded' });
    else if (step.linters.every((l) => l.status === 'not_applicable'))
      result.skipped.push({
        step: 'lint',
        reason: `no linter applies: ${step.linters.map((l) => `${l.name}: ${l.reason}`).join('; ')}`,
      });
  } else result.skipped.push({ step: 'lint', reason: 'lint: false' });

  if (args.tests) {
    const tests = await testStep(args, changed, maxHops, ctx, result.skipped, result.durations_ms);
    result.tests = tests.section;
    selection = tests.selection;
    blocking ||= tests.blocking;
  } else result.skipped.push({ step: 'tests', reason: 'tests: false' });
  result.ok = !blocking;
  return selection;
}

/** Runs one step and adds its wall time to `durations`. */
async function timed<T>(
  durations: CheckpointResult['durations_ms'],
  step: keyof CheckpointResult['durations_ms'],
  work: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    durations[step] = Math.round(performance.now() - started) + (durations[step] ?? 0);
  }
}

/** Commit and push when asked and the checks passed; the test-impact summary; the one-line summary. */
async function finish(
  args: CheckpointArgs,
  ctx: ToolContext,
  changed: string[],
  result: CheckpointResult,
  selection: TestSelection | undefined,
): Promise<CheckpointResult> {
  const timeoutS = ctx.config.server.checkpoint?.hook_timeout_s ?? HOOK_TIMEOUT_S;
  const deadline: GitDeadline = { timeoutMs: timeoutS * 1000, signal: ctx.signal };
  if (args.commit_message) {
    if (!result.ok) {
      result.commit = {
        committed: false,
        files: [],
        hook_modified: [],
        reason: 'checks failed; nothing was staged or committed',
      };
    } else {
      const message = args.commit_message;
      // exactly the changed files (with the linters' fixes to them); a fix elsewhere is the user's to commit
      const elsewhere = (result.lint?.fixed_files ?? []).filter((f) => !changed.includes(f));
      try {
        const commit = () => commitFiles(ctx.repoRoot, changed, message, deadline);
        result.commit = await timed(result.durations_ms, 'commit', commit);
      } catch (error) {
        // nothing was committed: the error carries what the checks found, so nothing is lost
        const checks = summaryOf({ ...result, ok: false, verdict: 'FAIL' });
        if (error instanceof AgentgovError) error.details['checkpoint'] = checks;
        throw error;
      }
      if (elsewhere.length) result.commit.fixes_not_committed = elsewhere;
      result.ok = result.commit.committed;
    }
  }
  if (args.push) {
    if (!args.commit_message) result.skipped.push({ step: 'push', reason: 'push is only used with commit_message' });
    else if (!result.commit?.committed || !result.commit.sha)
      result.skipped.push({ step: 'push', reason: 'nothing was committed' });
    else {
      try {
        const sha = result.commit.sha;
        result.push = await timed(result.durations_ms, 'push', () => pushBranch(ctx.repoRoot, sha, deadline));
      } catch (error) {
        // the commit is made: the error carries what the checkpoint did, so nothing is lost
        const checks = summaryOf({ ...result, ok: false, verdict: 'FAIL' });
        if (error instanceof AgentgovError) error.details['checkpoint'] = checks;
        throw error;
      }
    }
  }
  if (args.include_test_impact) result.test_impact = testImpact(ctx.repoRoot, selection);
  result.verdict = !result.ok ? 'FAIL' : checkedAnything(result) ? 'PASS' : 'NOTHING CHECKED';
  result.summary = summaryOf(result);
  return result;
}

function testImpact(root: string, selection: TestSelection | undefined): NonNullable<CheckpointResult['test_impact']> {
  const candidates = (selection?.hops.flat() ?? []).map((s: SelectedTestFile) => ({
    file: s.file,
    runner: s.runner,
    distance: s.distance,
    reaches: s.reaches,
  }));
  const coverage = summarizeCoverage(root);
  return { candidates, coverage: coverage.value, coverage_reason: coverage.reason };
}
