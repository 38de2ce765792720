export interface LintProblem {
  path: string;
  line: number;
  column: number;
  rule: string;
  severity: 'error' | 'warning';
  message: string;
}

export interface LintResult {
  problems: LintProblem[];
  fixedFiles: string[];
}

export interface Linter {
  name: string;
  /** Whether this linter applies to the repository at `root`. */
  appliesTo(root: string): Promise<boolean>;
  lint(root: string, options: { autofix: boolean; files?: string[] }): Promise<LintResult>;
}
