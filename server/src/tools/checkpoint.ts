import { z } from 'zod';
import { runCheckpoint, type CheckpointResult } from '../checkpoint/checkpoint.js';
import { renderCheckpoint } from '../checkpoint/render.js';
import { defineTool } from './tool.js';

const input = z
  .object({
    changed_files: z
      .array(z.string().min(1))
      .min(1)
      .describe(
        'Files modified in the task. Repository-relative; tests are chosen from them, and they are what gets committed',
      ),
    lint: z.boolean().default(true).describe('Lint the whole repository first'),
    autofix: z
      .boolean()
      .default(true)
      .describe("Apply the linters' automatic fixes. Fixes to the changed files are committed with them"),
    tests: z.boolean().default(true).describe('Run the tests the change can break'),
    test_filter: z
      .string()
      .min(1)
      .nullable()
      .default(null)
      .describe("Test-name filter (mocha --grep, pytest -k). Passed to the test runner's name-filter option"),
    max_test_hops: z
      .number()
      .int()
      .min(0)
      .max(10)
      .nullable()
      .default(null)
      .describe(
        'Import-graph hops for test selection. null = 0, or 2 with commit_message. ' +
          '0 = tests importing the changed files directly, 1 = plus one file in between',
      ),
    commit_message: z
      .string()
      .min(1)
      .nullable()
      .default(null)
      .describe('Commit the changed files alone when no check failed. Hooks run; what else is staged stays staged'),
    push: z
      .boolean()
      .default(false)
      .describe('Push to origin after the commit. Never forced; only used with commit_message'),
    include_test_impact: z.boolean().default(false).describe('Add test candidates and a coverage summary'),
  })
  .strict();

export const checkpointTool = defineTool({
  name: 'checkpoint',
  group: 'Commit',
  readOnly: false,
  mutates: (args) => (args.lint && args.autofix) || args.commit_message !== null,
  brief:
    'Finishes a task: lints (auto-fixing), runs the tests the changed files can break, and with ' +
    '`commit_message` commits when everything passes, optionally pushing. Use it after editing files.',
  description:
    'Finishes a task: lints the repository (auto-fixing), runs the tests the change can break nearest first ' +
    '(tests importing the changed files, farther ones only when those pass), and with commit_message commits ' +
    'exactly the changed files when no check failed (hooks run; what else is staged stays staged), then ' +
    'optionally pushes. Refuses during a merge, rebase, cherry-pick, revert or bisect.',
  inputSchema: input,
  outputSchema: z
    .object({
      ok: z.boolean(),
      verdict: z.enum(['PASS', 'FAIL', 'NOTHING CHECKED']),
      summary: z.string(),
      changed_files: z.array(z.string()),
      lint: z.object({}).passthrough().nullable(),
      tests: z.object({}).passthrough().nullable(),
      commit: z.object({}).passthrough().nullable(),
      push: z.object({}).passthrough().nullable(),
      skipped: z.array(z.object({ step: z.string(), reason: z.string() }).passthrough()),
      test_impact: z.object({}).passthrough().optional(),
    })
    .passthrough(),
  returns:
    '`ok` (nothing failed), `verdict` (PASS, FAIL, or NOTHING CHECKED when no linter and no test looked ' +
    'at anything), a one-line `summary`, `lint` (per linter: ran / not_applicable with reason / failed; ' +
    'errors, warnings, `problems` as `path:line:col rule message`, `by_rule` counts when there are many, ' +
    '`fixed_files`), `tests` (per hop: files, status, counts, rerun commands; `failures` with test id, ' +
    'message and the stack frames inside the repository; `note` on what lies beyond max_test_hops), ' +
    '`commit` (sha, parent = the old HEAD, exactly the files committed, hook_modified) or why not; a ' +
    "refused commit is E_COMMIT_FAILED naming the hook or git's reason, `push`, `skipped` steps with " +
    'reasons; `test_impact` on request.',
  whenToUse:
    'After editing files, to check and commit the work: first without commit_message ' +
    'to see problems, then with it to commit.',
  related: ['semantic_diff', 'recon_impact', 'refactor_commit'],
  errors: [
    'E_READ_ONLY_SESSION',
    'E_PATH_OUTSIDE_REPO',
    'E_NOT_FOUND',
    'E_INDEX_NOT_READY',
    'E_GIT_OPERATION_IN_PROGRESS',
    'E_COMMIT_FAILED',
    'E_PUSH_FAILED',
    'E_TEST_RUNNER_MISSING',
    'E_TEST_CONFIG_INVALID',
  ],
  example: { changed_files: ['src/parse.ts'], commit_message: 'parse: accept empty headers' },
  needsIndex: true,
  pathArguments: ['changed_files'],
  async handler(args, ctx): Promise<CheckpointResult> {
    return runCheckpoint(args, ctx);
  },
  render: renderCheckpoint,
});
