/** One problem a linter reports, at a 1-based line and column of a repository-relative file. */
export interface LintProblem {
  /** Repository-relative, POSIX separators. */
  path: string;
  line: number;
  column: number;
  /** The rule id (`no-unused-vars`, `F401`); `parse-error` when the file could not be parsed. */
  rule: string;
  severity: 'error' | 'warning';
  message: string;
  /** The linter could fix it automatically (reported when the run did not fix it). */
  fixable: boolean;
}

/**
 * Whether a linter applies to a repository; when it does not, `reason` says why (no config, tool absent), so the answer
 * never passes silently.
 */
export type LintApplicability = { applies: true; tool: string } | { applies: false; reason: string };

export interface LintRequest {
  /** Apply the linter's automatic fixes to the files on disk. */
  fix: boolean;
  /** Repository-relative files to lint; omitted = the whole repository. */
  files?: string[];
  /** Aborted when the caller gives up (the tool call is cancelled). */
  signal?: AbortSignal;
}

export interface LintResult {
  /** Problems left after fixing (all of them when `fix` was false). */
  problems: LintProblem[];
  /** Files the linter rewrote with fixes, repository-relative. */
  fixedFiles: string[];
  /** How many files were linted. */
  filesChecked: number;
  /** What ran: tool, version and where it came from (`eslint 9.39.1 (project)`). */
  tool: string;
}

/**
 * A linter `checkpoint` runs, registered through the `linters` hook. `applicability` is asked
 * first; `lint` runs only when it applies. A linter never throws for problems it found (those are
 * results); it throws (an `AgentgovError` with a clear message) when the tool itself fails.
 */
export interface Linter {
  name: string;
  applicability(root: string): Promise<LintApplicability>;
  lint(root: string, request: LintRequest): Promise<LintResult>;
}
