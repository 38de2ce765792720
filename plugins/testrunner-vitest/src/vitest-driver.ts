// The child process the vitest runner starts in the project's directory: it loads the project's own
// vitest through its Node API (`createVitest` from 'vitest/node'), so vitest resolves the project's
// `vitest.config.*`/`vite.config.*` itself, then lists or runs test files and writes what it found
// as JSON. Kept free of agentgov imports: it starts fast and runs where the project's vitest is.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ReportedTestCase } from '@agentgov/core/contracts';

/** What the host asks for (argv[2], JSON). */
export interface DriverRequest {
  mode: 'discover' | 'run';
  root: string;
  out: string;
  files?: string[];
  nameFilter?: string;
  /** A setup file to add to the project's `setupFiles` (per-test coverage hooks). */
  setupFile?: string;
}

/** What the driver writes to `out`. */
export type DriverAnswer =
  | {
      ok: true;
      version: string;
      config: string | null;
      files: string[];
      tests?: DriverCase[];
      fileErrors?: { file: string; message: string }[];
      unhandled?: string[];
    }
  | { ok: false; stage: 'missing' | 'config' | 'run'; message: string };

/** A case as the driver reports it (the contract's, before agentgov names it). */
export type DriverCase = ReportedTestCase;

interface Task {
  type: string;
  name: string;
  mode?: string;
  filepath?: string;
  tasks?: Task[];
  result?: { state?: string; duration?: number; errors?: { message?: string; stack?: string }[] };
}

interface Specification {
  moduleId: string;
}

/** The parts of vitest's `Vitest` class the driver uses, across vitest 1 to 4. */
interface VitestContext {
  version?: string;
  vite?: { config?: { configFile?: string } };
  server?: { config?: { configFile?: string } };
  state: { getFiles(): Task[]; getUnhandledErrors?(): unknown[] };
  globTestSpecifications?(): Promise<Specification[]>;
  globTestFiles?(): Promise<(Specification | [unknown, string])[]>;
  runTestSpecifications?(specs: Specification[], allTestsRun?: boolean): Promise<unknown>;
  start(filters?: string[]): Promise<unknown>;
  close(): Promise<void>;
}

type CreateVitest = (
  mode: 'test',
  options: Record<string, unknown>,
  viteOverrides?: Record<string, unknown>,
) => Promise<VitestContext>;

const toPosix = (path: string) => path.split(sep).join('/');

function answer(out: string, value: DriverAnswer): void {
  writeFileSync(out, JSON.stringify(value));
}

async function loadVitest(root: string): Promise<{ createVitest: CreateVitest; version: string } | string> {
  const require = createRequire(join(root, 'package.json'));
  let entry: string;
  let version: string;
  try {
    entry = require.resolve('vitest/node');
    version = (require('vitest/package.json') as { version: string }).version;
  } catch (error) {
    return `vitest is not installed in ${root} (${(error as Error).message.split('\n')[0]})`;
  }
  const module = (await import(pathToFileURL(entry).href)) as { createVitest?: CreateVitest };
  if (typeof module.createVitest !== 'function')
    return `vitest ${version} in ${root} has no createVitest in 'vitest/node'`;
  return { createVitest: module.createVitest, version };
}

/** Suite titles then the test's title; the file task itself is not a title. */
function* cases(task: Task, titles: string[]): Generator<{ task: Task; titlePath: string[] }> {
  for (const child of task.tasks ?? []) {
    if (child.type === 'suite') yield* cases(child, [...titles, child.name]);
    else if (child.type === 'test' || child.type === 'custom')
      yield { task: child, titlePath: [...titles, child.name] };
  }
}

function statusOf(task: Task): DriverCase['status'] {
  const state = task.result?.state;
  if (state === 'pass') return 'passed';
  if (state === 'fail') return 'failed';
  return 'skipped';
}

function errorText(
  errors: { message?: string; stack?: string }[] | undefined,
): { message: string; stack?: string } | undefined {
  const first = errors?.[0];
  if (!first) return undefined;
  return { message: first.message ?? String(first), ...(first.stack ? { stack: first.stack } : {}) };
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2] ?? '{}') as DriverRequest;
  const loaded = await loadVitest(request.root);
  if (typeof loaded === 'string') return answer(request.out, { ok: false, stage: 'missing', message: loaded });
  // An empty reporter object keeps vitest quiet: results are read from its state afterwards.
  const plugins = request.setupFile
    ? [{ name: 'agentgov:per-test-coverage', config: () => ({ test: { setupFiles: [request.setupFile] } }) }]
    : [];
  let vitest: VitestContext;
  try {
    vitest = await loaded.createVitest(
      'test',
      {
        root: request.root,
        watch: false,
        run: true,
        reporters: [{}],
        passWithNoTests: true,
        coverage: { enabled: false },
        ...(request.nameFilter ? { testNamePattern: request.nameFilter } : {}),
      },
      { plugins },
    );
  } catch (error) {
    return answer(request.out, { ok: false, stage: 'config', message: (error as Error).message ?? String(error) });
  }
  const config = vitest.vite?.config?.configFile ?? vitest.server?.config?.configFile ?? null;
  try {
    const specifications = vitest.globTestSpecifications
      ? await vitest.globTestSpecifications()
      : ((await vitest.globTestFiles?.()) ?? []).map((item) => (Array.isArray(item) ? { moduleId: item[1] } : item));
    const relativeOf = (spec: Specification) => toPosix(relative(request.root, spec.moduleId));
    const files = [...new Set(specifications.map(relativeOf))].sort();
    const base = {
      ok: true as const,
      version: loaded.version,
      config: config ? toPosix(relative(request.root, config)) : null,
      files,
    };
    if (request.mode === 'discover') return answer(request.out, base);
    const wanted = new Set(request.files?.length ? request.files : files);
    const chosen = specifications.filter((spec) => wanted.has(relativeOf(spec)));
    if (chosen.length && vitest.runTestSpecifications) await vitest.runTestSpecifications(chosen, false);
    else if (chosen.length) await vitest.start(chosen.map((spec) => spec.moduleId));
    const tests: DriverCase[] = [];
    const fileErrors: { file: string; message: string }[] = [];
    for (const file of vitest.state.getFiles()) {
      const path = toPosix(relative(request.root, file.filepath ?? file.name));
      const own = [...cases(file, [])];
      for (const { task, titlePath } of own) {
        const status = statusOf(task);
        const failure = status === 'failed' ? errorText(task.result?.errors) : undefined;
        tests.push({
          file: path,
          titlePath,
          status,
          durationMs: Math.round(task.result?.duration ?? 0),
          ...(failure ? { failure } : {}),
        });
      }
      // A file that failed outside its tests (import error, syntax error, a throwing describe).
      if (file.result?.state === 'fail' && file.result.errors?.length)
        fileErrors.push({ file: path, message: errorText(file.result.errors)!.message });
    }
    const unhandled = (vitest.state.getUnhandledErrors?.() ?? []).map(
      (error) => (error as Error).message ?? String(error),
    );
    answer(request.out, { ...base, tests, fileErrors, unhandled });
  } catch (error) {
    answer(request.out, { ok: false, stage: 'run', message: (error as Error).message ?? String(error) });
  } finally {
    await vitest.close();
  }
}

await main();
// vitest leaves its worker pool's handles to the host; the answer is written, so end here.
process.exit(0);
