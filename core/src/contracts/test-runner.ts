export interface TestRunResult {
  file: string;
  passed: number;
  failed: number;
  skipped: number;
  durationMs: number;
  output: string;
}

export interface TestRunner {
  name: string;
  /** Whether `file` (repo-relative) is a test file this runner can run. */
  isTestFile(root: string, file: string): boolean;
  run(root: string, files: string[], options: { nameFilter?: string; coverage?: boolean }): Promise<TestRunResult[]>;
}
