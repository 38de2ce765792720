import type { LintProblem, Linter } from '@agentgov/core';

/** What one linter did: ran (with its tool), did not apply (and why), or failed (and why). */
export interface LinterOutcome {
  name: string;
  status: 'ran' | 'not_applicable' | 'failed';
  tool?: string;
  reason?: string;
  files_checked?: number;
  errors?: number;
  warnings?: number;
}

export interface LintStep {
  linters: LinterOutcome[];
  problems: LintProblem[];
  fixed_files: string[];
  /** An error-severity problem is left, or a linter failed: nothing may be committed. */
  blocking: boolean;
}

/**
 * Lints the whole repository with every registered linter that applies (auto-fixing when `fix`).
 * A linter that does not apply is reported with its reason; one that throws is reported as failed
 * and blocks, like an error it found.
 */
export async function runLint(
  linters: readonly Linter[],
  root: string,
  fix: boolean,
  signal?: AbortSignal,
): Promise<LintStep> {
  const step: LintStep = { linters: [], problems: [], fixed_files: [], blocking: false };
  for (const linter of linters) {
    signal?.throwIfAborted();
    try {
      const applicability = await linter.applicability(root);
      if (!applicability.applies) {
        step.linters.push({ name: linter.name, status: 'not_applicable', reason: applicability.reason });
        continue;
      }
      const result = await linter.lint(root, { fix, signal });
      const errors = result.problems.filter((p) => p.severity === 'error').length;
      step.linters.push({
        name: linter.name,
        status: 'ran',
        tool: result.tool,
        files_checked: result.filesChecked,
        errors,
        warnings: result.problems.length - errors,
      });
      step.problems.push(...result.problems);
      step.fixed_files.push(...result.fixedFiles);
      if (errors > 0) step.blocking = true;
    } catch (error) {
      if (signal?.aborted) throw error;
      step.linters.push({
        name: linter.name,
        status: 'failed',
        reason: error instanceof Error ? error.message : String(error),
      });
      step.blocking = true;
    }
  }
  step.fixed_files = [...new Set(step.fixed_files)].sort();
  return step;
}
