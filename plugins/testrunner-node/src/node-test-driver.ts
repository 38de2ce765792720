// The child process the node:test runner starts in the project: it runs the chosen files with
// `run()` from 'node:test' (one process per file, as `node --test` does) and turns its reporter
// events into test cases, written as JSON. It is started with the project's node options
// (`--import tsx`...), which the test processes inherit.
import { writeFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { run } from 'node:test';
import type { ReportedTestCase } from '@agentgov/core/contracts';

export interface DriverRequest {
  root: string;
  out: string;
  /** Absolute paths. */
  files: string[];
  nameFilter?: string;
}

/** A case as the driver reports it (the contract's, before agentgov names it). */
export type DriverCase = ReportedTestCase;

export interface DriverAnswer {
  tests: DriverCase[];
  fileErrors: { file: string; message: string }[];
}

type TestError = Error & { cause?: unknown; failureType?: string };

interface TestEventData {
  name: string;
  message?: string;
  nesting: number;
  file?: string;
  skip?: boolean | string;
  todo?: boolean | string;
  details?: { duration_ms?: number; type?: string; error?: TestError };
}

const toPosix = (path: string) => path.split(sep).join('/');

function failureOf(error: TestError | undefined): { message: string; stack?: string } {
  const cause = error?.cause instanceof Error ? error.cause : undefined;
  const source = cause ?? error;
  return {
    message: source?.message ?? String(error?.cause ?? 'failed'),
    ...(source?.stack ? { stack: source.stack } : {}),
  };
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2] ?? '{}') as DriverRequest;
  const answer: DriverAnswer = { tests: [], fileErrors: [] };
  const stacks = new Map<string, string[]>();
  /** What each file's process wrote to stderr: a file that fails to load says why there. */
  const stderr = new Map<string, string>();
  const stream = run({
    files: request.files,
    ...(request.nameFilter ? { testNamePatterns: [request.nameFilter] } : {}),
  } as Parameters<typeof run>[0]);
  for await (const event of stream as AsyncIterable<{ type: string; data: TestEventData }>) {
    const { type, data } = event;
    if (!data?.file) continue;
    const file = toPosix(relative(request.root, data.file));
    if (type === 'test:stderr') {
      stderr.set(file, ((stderr.get(file) ?? '') + (data.message ?? '')).slice(-4000));
      continue;
    }
    const stack = stacks.get(file) ?? [];
    stacks.set(file, stack);
    if (type === 'test:start') {
      stack.length = data.nesting;
      stack.push(data.name);
      continue;
    }
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    // A file that fails to load is reported as a failing test named after the file itself.
    if (
      data.nesting === 0 &&
      (data.name === data.file || (data.details?.error?.failureType === 'testCodeFailure' && data.name === file))
    ) {
      if (type === 'test:fail') answer.fileErrors.push({ file, message: failureOf(data.details?.error).message });
      continue;
    }
    if (data.details?.type === 'suite') {
      if (type === 'test:fail' && data.details.error?.failureType !== 'subtestsFailed')
        answer.fileErrors.push({ file, message: failureOf(data.details.error).message });
      continue;
    }
    const titlePath = [...stack.slice(0, data.nesting), data.name];
    const status =
      data.skip !== undefined && data.skip !== false
        ? 'skipped'
        : data.todo !== undefined && data.todo !== false
          ? 'skipped'
          : type === 'test:pass'
            ? 'passed'
            : 'failed';
    answer.tests.push({
      file,
      titlePath,
      status,
      durationMs: Math.round(data.details?.duration_ms ?? 0),
      ...(status === 'failed' ? { failure: failureOf(data.details?.error) } : {}),
    });
  }
  for (const error of answer.fileErrors) {
    const text = stderr.get(error.file)?.trim();
    if (text) error.message = `${error.message}: ${text.split('\n').slice(0, 12).join('\n')}`;
  }
  writeFileSync(request.out, JSON.stringify(answer));
}

await main();
