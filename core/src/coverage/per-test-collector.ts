import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join, relative, sep } from 'node:path';
import type { TraceMap } from '@jridgewell/trace-mapping';
import type { TestCoverage } from '../contracts/test-runner.js';
import { executedLines, lineSpans, mapLines, scriptPathOf, sourceMapOf, type V8ScriptCoverage } from './v8-lines.js';

export {
  executedLines,
  lineSpans,
  scriptPathOf,
  type V8FunctionCoverage,
  type V8Range,
  type V8ScriptCoverage,
} from './v8-lines.js';

/** Environment the host sets for a test process whose tests it wants per-test coverage of. */
export const COVERAGE_ENV = {
  /** Repository root: only files under it (outside node_modules) are recorded. */
  root: 'AGENTGOV_COVERAGE_ROOT',
  /** Directory the collector writes `<pid>-<n>.json` files (`TestCoverage[]`) to. */
  out: 'AGENTGOV_COVERAGE_OUT',
  /** `debugger`: read executed sources from V8 (for code a loader transformed, e.g. vitest); default: read the file. */
  sources: 'AGENTGOV_COVERAGE_SOURCES',
  /**
   * `suite`: one take for each run of consecutive tests of one suite (runners whose hooks name the
   * suite: mocha), its lines given to each of them — a superset of each test's own lines, so fewer
   * takes (each costs time for every function the process ever ran) but a coarser ranking; default one take per test.
   */
  group: 'AGENTGOV_COVERAGE_GROUP',
  /**
   * How a runner that can choose gathers lines (mocha): `instrument` (istanbul counters in the
   * project's CommonJS files: a take reads a few counters instead of asking V8 about every function
   * the process ran), `v8` (V8 precise coverage); default: `instrument` for a CommonJS package.
   */
  engine: 'AGENTGOV_COVERAGE_ENGINE',
} as const;

interface ScriptInfo {
  /** Repo-relative path when the script is the file itself (no source map). */
  path?: string;
  spans?: ReturnType<typeof lineSpans>;
  map?: TraceMap;
  absolute: string;
}

type Bucket = Map<string, Set<number>>;

/**
 * Per-test coverage inside the test process: the runner's hooks call `beginTest` before and
 * `endTest` after each test. `endTest` takes (and resets) what ran, so what ran since the previous
 * test ended (its suite hooks, its own hooks and body) belongs to that test. What ran before the
 * first test (loading the test files and what they import) goes to the `file` scope as `*`.
 * `flush` writes what was gathered so far as one JSON file of `TestCoverage[]`. Subclasses say
 * what ran since the last take (`executedSinceLastTake`): V8 precise coverage (PerTestCollector)
 * or counters of instrumented sources (the mocha runner's).
 */
export abstract class TestCoverageCollector {
  private readonly buckets = new Map<string, { scope: 'test' | 'file'; id: string; files: Bucket }>();
  private flushes = 0;
  private started = false;
  private readonly grouped: boolean;
  /** With grouping: the tests of the current suite that ran since the last take. */
  private pending: { suite: string; ids: string[] } | undefined;

  constructor(
    protected readonly root: string,
    private readonly out: string,
    group: string | undefined = undefined,
  ) {
    this.grouped = group === 'suite';
    mkdirSync(out, { recursive: true });
  }

  /** Absolute file → 1-based lines executed since the previous call (which resets). */
  protected abstract executedSinceLastTake(): Iterable<[string, Iterable<number>]>;

  /** Lines run since the last take belong to the `file` scope of `testFile` (`*` before the first test). */
  beginTest(testFile: string | undefined, suite?: string): void {
    // The first take holds the loading of every test file the runner required up front. Later ones
    // are skipped: what ran since the previous test's end (suite hooks) is charged to this test.
    if (this.started) {
      if (this.pending && this.pending.suite !== suite) this.takePending();
      return;
    }
    this.take('file', '*');
    this.started = true;
    void testFile;
  }

  endTest(testId: string, suite?: string): void {
    if (!this.grouped || suite === undefined) {
      this.take('test', testId);
      return;
    }
    if (this.pending && this.pending.suite !== suite) this.takePending();
    if (this.pending) this.pending.ids.push(testId);
    else this.pending = { suite, ids: [testId] };
  }

  private takePending(): void {
    const pending = this.pending;
    this.pending = undefined;
    if (!pending) return;
    const [first, ...rest] = pending.ids;
    this.take('test', first!);
    const taken = this.buckets.get(`test\0${first}`);
    if (!taken) return;
    for (const id of rest) {
      const key = `test\0${id}`;
      let bucket = this.buckets.get(key);
      if (!bucket) this.buckets.set(key, (bucket = { scope: 'test', id, files: new Map() }));
      for (const [path, lines] of taken.files) {
        let target = bucket.files.get(path);
        if (!target) bucket.files.set(path, (target = new Set()));
        for (const line of lines) target.add(line);
      }
    }
  }

  /** Writes everything gathered since the last flush; `testFile` gets what ran since the last test. */
  flush(testFile?: string): void {
    this.takePending();
    this.take('file', testFile ? this.relativePath(testFile) : '*');
    const coverage: TestCoverage[] = [...this.buckets.values()]
      .filter((bucket) => bucket.files.size > 0)
      .map((bucket) => ({
        scope: bucket.scope,
        id: bucket.id,
        files: [...bucket.files].map(([file, lines]) => ({ file, lines: [...lines].sort((a, b) => a - b) })),
      }));
    this.buckets.clear();
    writeFileSync(join(this.out, `${process.pid}-${this.flushes++}.json`), JSON.stringify(coverage));
  }

  relativePath(absolute: string): string {
    return relative(this.root, absolute).split(sep).join('/');
  }

  /** Lines that count for every test (the `file` scope `*`), whenever they ran. */
  protected chargeToEveryTest(lines: Map<string, Iterable<number>>): void {
    this.addLines('file\0*', 'file', '*', lines);
  }

  /** The repo-relative path of a file inside the repository and outside node_modules, else undefined. */
  protected inRepo(absolute: string): string | undefined {
    const path = this.relativePath(absolute);
    if (path.startsWith('..') || path.includes('node_modules/') || path.startsWith('/')) return undefined;
    return path;
  }

  private take(scope: 'test' | 'file', id: string): void {
    this.addLines(`${scope}\0${id}`, scope, id, this.executedSinceLastTake());
  }

  private addLines(
    key: string,
    scope: 'test' | 'file',
    id: string,
    executed: Iterable<[string, Iterable<number>]>,
  ): void {
    for (const [absolute, lines] of executed) {
      const path = this.inRepo(absolute);
      if (!path) continue;
      let bucket = this.buckets.get(key);
      if (!bucket) this.buckets.set(key, (bucket = { scope, id, files: new Map() }));
      let target = bucket.files.get(path);
      if (!target) bucket.files.set(path, (target = new Set()));
      for (const line of lines) target.add(line);
    }
  }
}

/**
 * Per-test coverage from V8 precise coverage (`Profiler.takePreciseCoverage`, block counts): any code V8 runs, whatever
 * loaded it.
 */
export class PerTestCollector extends TestCoverageCollector {
  private readonly session = new Session();
  private readonly scripts = new Map<string, ScriptInfo | null>();
  private readonly useDebugger: boolean;

  constructor(root: string, out: string, sources: string | undefined, group: string | undefined = undefined) {
    super(root, out, group);
    this.useDebugger = sources === 'debugger';
    this.session.connect();
    this.post('Profiler.enable');
    if (this.useDebugger) this.post('Debugger.enable');
    // callCount: the binary modes report a function only the first time it runs, so later tests would miss it
    this.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  }

  private post<T = unknown>(method: string, params?: object): T {
    return postNow<T>(this.session, method, params);
  }

  protected *executedSinceLastTake(): Iterable<[string, Iterable<number>]> {
    const { result } = this.post<{ result: V8ScriptCoverage[] }>('Profiler.takePreciseCoverage');
    for (const script of result) {
      if (this.scripts.get(script.scriptId) === null) continue;
      if (!script.functions.some((fn) => fn.ranges.some((range) => range.count > 0))) continue;
      const info = this.scriptInfo(script);
      if (!info) continue;
      const lines = info.spans ? executedLines(info.spans, script.functions) : [];
      if (lines.length === 0) continue;
      if (info.map) yield* mapLines(info.map, info.absolute, lines);
      else yield [info.absolute, lines];
    }
  }

  private scriptInfo(script: V8ScriptCoverage): ScriptInfo | null {
    const cached = this.scripts.get(script.scriptId);
    if (cached !== undefined) return cached;
    const absolute = scriptPathOf(script.url);
    let info: ScriptInfo | null = null;
    if (absolute && this.inRepo(absolute) !== undefined) {
      try {
        const source = this.useDebugger
          ? this.post<{ scriptSource: string }>('Debugger.getScriptSource', { scriptId: script.scriptId }).scriptSource
          : readFileSync(absolute, 'utf8');
        const map = sourceMapOf(source, absolute);
        info = { absolute, spans: lineSpans(source), ...(map ? { map } : {}) };
      } catch {
        info = null;
      }
    }
    this.scripts.set(script.scriptId, info);
    return info;
  }
}

/**
 * An inspector command on a session connected to this thread, which answers before `post` returns; throws its error.
 */
export function postNow<T = unknown>(session: Session, method: string, params?: object): T {
  let result: T | undefined;
  let failure: Error | null = null;
  let done = false;
  session.post(method, params ?? {}, (error, value) => {
    failure = error;
    result = value as T;
    done = true;
  });
  if (!done) throw new Error(`inspector ${method} did not answer synchronously`);
  if (failure) throw failure;
  return result as T;
}

/** The stable id of a JS test case: its repo-relative file and its title path, joined by ` > `. */
export function testCaseId(file: string, titlePath: readonly string[]): string {
  return [file, ...titlePath].join(' > ');
}

let shared: TestCoverageCollector | undefined;

/**
 * The process's collector, created from `COVERAGE_ENV`; undefined when the host did not ask for
 * coverage. `create` makes a runner's own collector (it returns undefined to take V8's).
 */
export function collectorFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  create?: (root: string, out: string) => TestCoverageCollector | undefined,
): TestCoverageCollector | undefined {
  if (shared) return shared;
  const root = env[COVERAGE_ENV.root];
  const out = env[COVERAGE_ENV.out];
  if (!root || !out) return undefined;
  shared = create?.(root, out) ?? new PerTestCollector(root, out, env[COVERAGE_ENV.sources], env[COVERAGE_ENV.group]);
  return shared;
}
