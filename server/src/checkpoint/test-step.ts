import { AgentgovError, type TestRunReport, type TestRunner } from '@agentgov/core';
import type { SelectedTestFile } from './test-selection.js';

/** Stack lines kept per failing test (those inside the repository, not node_modules). */
export const STACK_LINES = 3;

export interface TestFailure {
  id: string;
  file: string;
  message: string;
  /** The first stack frames inside the repository, repository-relative. */
  stack: string[];
}

export interface HopOutcome {
  distance: number;
  files: string[];
  status: 'passed' | 'failed' | 'not_run' | 'empty';
  reason?: string;
  passed: number;
  failed: number;
  skipped: number;
  duration_ms: number;
  /** The commands that rerun this hop's tests, one per runner. */
  commands: string[];
}

/** Stored results that still hold for a test file: every test's covered files are unchanged since it ran. */
export interface CachedFile {
  tests: { id: string; status: string; run_at: number; failure: { message: string; stack?: string } | null }[];
}

export interface HopRun {
  hops: HopOutcome[];
  /** Results reused instead of running, with their age. */
  cached: { id: string; status: string; age_s: number }[];
  failures: TestFailure[];
  /** Test files that did not load or whose process died, with the tail of their output. */
  file_errors: { file: string; output: string }[];
  blocking: boolean;
}

/** The stack frames of a failure that point into the repository (not node_modules), made relative. */
export function repoFrames(stack: string | undefined, root: string): string[] {
  if (!stack) return [];
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return stack
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('at ') || /^\S+\.py:\d+/.test(line) || line.startsWith('File "'))
    .filter((line) => line.includes(prefix) && !line.includes('/node_modules/') && !line.includes('/site-packages/'))
    .map((line) => line.replaceAll(`file://${prefix}`, '').replaceAll(prefix, ''))
    .slice(0, STACK_LINES);
}

function add(outcome: HopOutcome, run: HopRun, report: TestRunReport, root: string): void {
  for (const test of report.tests) {
    if (test.status === 'passed') outcome.passed++;
    else if (test.status === 'skipped') outcome.skipped++;
    else {
      outcome.failed++;
      run.failures.push({
        id: test.id,
        file: test.file,
        message: (test.failure?.message ?? 'failed').split('\n').slice(0, 6).join('\n'),
        stack: repoFrames(test.failure?.stack, root),
      });
    }
  }
  for (const file of report.files)
    if (file.status === 'error')
      run.file_errors.push({ file: file.file, output: file.output.split('\n').slice(-12).join('\n') });
  if (report.timedOut)
    run.file_errors.push({
      file: report.files.map((f) => f.file).join(', '),
      output: `timed out after ${report.durationMs} ms\n${report.output.split('\n').slice(-8).join('\n')}`,
    });
}

function useCached(outcome: HopOutcome, run: HopRun, cached: CachedFile, root: string): void {
  const now = Date.now();
  for (const test of cached.tests) {
    run.cached.push({ id: test.id, status: test.status, age_s: Math.round((now - test.run_at) / 1000) });
    if (test.status === 'passed') outcome.passed++;
    else if (test.status === 'skipped') outcome.skipped++;
    else {
      outcome.failed++;
      run.failures.push({
        id: test.id,
        file: test.id.split(/ > |::/)[0] ?? test.id,
        message: `(cached) ${(test.failure?.message ?? 'failed').split('\n').slice(0, 6).join('\n')}`,
        stack: repoFrames(test.failure?.stack, root),
      });
    }
  }
}

/**
 * Runs the selected test files hop by hop, nearest first, each hop's files grouped per runner; a
 * hop runs only when every nearer one passed. `nameFilter` goes to each runner's own name filter.
 */
export async function runHops(
  hops: readonly SelectedTestFile[][],
  runners: ReadonlyMap<string, TestRunner>,
  root: string,
  options: { nameFilter?: string; signal?: AbortSignal; cached?: (file: string) => CachedFile | undefined },
): Promise<HopRun> {
  const run: HopRun = { hops: [], cached: [], failures: [], file_errors: [], blocking: false };
  for (const [distance, selected] of hops.entries()) {
    const outcome: HopOutcome = {
      distance,
      files: selected.map((s) => s.file),
      status: 'passed',
      passed: 0,
      failed: 0,
      skipped: 0,
      duration_ms: 0,
      commands: [],
    };
    run.hops.push(outcome);
    if (run.blocking) {
      outcome.status = 'not_run';
      outcome.reason = `distance ${distance - 1} failed; farther tests run only when nearer ones pass`;
      continue;
    }
    if (selected.length === 0) {
      outcome.status = 'empty';
      continue;
    }
    const byRunner = new Map<string, string[]>();
    for (const s of selected) {
      const cached = options.cached?.(s.file);
      if (cached) useCached(outcome, run, cached, root);
      else byRunner.set(s.runner, [...(byRunner.get(s.runner) ?? []), s.file]);
    }
    if (outcome.failed > 0) outcome.status = 'failed';
    const started = Date.now();
    for (const [name, files] of byRunner) {
      const runner = runners.get(name)!;
      outcome.commands.push(runner.command(files, options.nameFilter));
      const errorsBefore = run.file_errors.length;
      try {
        add(
          outcome,
          run,
          await runner.run(root, { files, nameFilter: options.nameFilter, signal: options.signal }),
          root,
        );
      } catch (error) {
        // the runner could not run (not installed, config rejected): reported with the rest of the answer, and it
        // blocks
        if (options.signal?.aborted) throw error;
        const code = error instanceof AgentgovError ? `${error.code}: ` : '';
        run.file_errors.push({
          file: files.join(', '),
          output: `${name} could not run: ${code}${error instanceof Error ? error.message : String(error)}`,
        });
      }
      if (outcome.failed > 0 || run.file_errors.length > errorsBefore) outcome.status = 'failed';
    }
    outcome.duration_ms = Date.now() - started;
    if (outcome.status === 'failed') run.blocking = true;
  }
  return run;
}
