/**
 * Per-test coverage by instrumenting the project's CommonJS sources (istanbul-lib-instrument, put
 * in front of `require` by pirates), for mocha. V8 precise coverage costs each take time for every
 * function the process ever ran — mocha, the HTTP stack, every dependency — which on a suite of
 * fast tests (express: 1,260 tests in 3 s) is 4–5× the plain run; counters in the project's own
 * files are read in microseconds, so a take per test stays cheap (bench/test-impact).
 *
 * A take turns the counters that moved since the previous take into ranges (each function's and
 * each statement's source range, and the operand ranges of `&&`, `||`, `?:` and default values),
 * and reads lines from them by V8's rule (`executedLines`: outermost first, a range sets every line
 * it fully contains), so a never-run branch inside a run `if` uncovers its own lines as with V8.
 * Stack traces keep their line numbers (the generated code retains the lines of the source).
 *
 * No blind spot: project code that ran without instrumentation (an ES module, a file another loader
 * transformed) is found through V8's best-effort coverage (no instrumentation cost) when the tests
 * start and at every flush, and its lines are charged to the `file` scope `*` — to every test —
 * with a note on stderr, never dropped.
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { createInstrumenter } from 'istanbul-lib-instrument';
import { addHook } from 'pirates';
import {
  executedLines,
  lineSpans,
  postNow,
  scriptPathOf,
  TestCoverageCollector,
  type V8Range,
  type V8ScriptCoverage,
} from '@agentgov/core/coverage-collector';

/**
 * The global the instrumented code counts in (created before mocha notes the globals, so `--check-leaks` accepts it).
 */
const COVERAGE_VARIABLE = '__agentgov_coverage__';

interface Location {
  start: { line: number; column: number | null };
  end: { line: number; column: number | null };
}

/** The part of istanbul's per-file coverage object a take reads. */
interface FileCoverage {
  path: string;
  statementMap: Record<string, Location>;
  fnMap: Record<string, { loc: Location }>;
  branchMap: Record<string, { type: string; locations: Location[] }>;
  s: Record<string, number>;
  f: Record<string, number>;
  b: Record<string, number[]>;
}

interface Instrumented {
  spans: ReturnType<typeof lineSpans>;
  /** Source ranges (offsets) of the functions, the statements and the operand branches, in that order. */
  starts: Int32Array;
  ends: Int32Array;
  /** The innermost function each counter lies in (its own index for a function; -1 at the top level). */
  within: Int32Array;
  functions: number;
  statements: number;
  /** The operand branches: [branch key, location index] per counter after the statements. */
  branches: Array<[string, number]>;
  /** Each counter's value at the previous take. */
  previous: Float64Array;
  /** The source's length. */
  length: number;
}

/** Branch kinds whose locations are operands (the others' locations are the whole statement). */
const OPERAND_BRANCHES = new Set(['binary-expr', 'cond-expr', 'default-arg', 'logical-assignment']);

/**
 * Whether a package (by its package.json's `type`) loads its `.js` files as CommonJS: then they go through `require`,
 * and can be instrumented.
 */
export function isCommonJsPackage(root: string): boolean {
  try {
    return (JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { type?: string }).type !== 'module';
  } catch {
    return true; // no package.json: Node's default
  }
}

export class InstrumentedCollector extends TestCoverageCollector {
  private readonly files = new Map<string, Instrumented>();
  private readonly session = new Session();
  /** Uninstrumented project files already charged to every test (reported once). */
  private readonly charged = new Set<string>();
  private checkedAtStart = false;

  constructor(root: string, out: string, group?: string) {
    super(root, out, group);
    const global = globalThis as Record<string, unknown>;
    global[COVERAGE_VARIABLE] ??= {};
    const instrumenter = createInstrumenter({
      coverageVariable: COVERAGE_VARIABLE,
      esModules: false,
      compact: false,
      preserveComments: false, // a kept comment (istanbul's own among them) would break the retained lines
      produceSourceMap: false,
      autoWrap: true,
      // Stack traces and the line numbers of failures stay those of the source.
      generatorOpts: { retainLines: true },
    });
    addHook(
      (code, filename) => {
        try {
          const instrumented = instrumenter.instrumentSync(code, filename);
          const coverage = instrumenter.lastFileCoverage() as unknown as FileCoverage;
          this.files.set(filename, instrumentedFile(coverage, code));
          return instrumented;
        } catch {
          return code; // not parseable as a script: it runs as it is, and V8 sees it (below)
        }
      },
      { exts: ['.js', '.cjs'], ignoreNodeModules: true, matcher: (filename) => this.inRepo(filename) !== undefined },
    );
    this.session.connect();
    postNow(this.session, 'Profiler.enable');
  }

  protected *executedSinceLastTake(): Iterable<[string, Iterable<number>]> {
    const all = (globalThis as Record<string, unknown>)[COVERAGE_VARIABLE] as Record<string, FileCoverage> | undefined;
    for (const [file, instrumented] of this.files) {
      const coverage = all?.[file];
      if (coverage) {
        const lines = movedLines(instrumented, coverage);
        if (lines.length > 0) yield [file, lines];
      }
    }
  }

  override beginTest(testFile: string | undefined, suite?: string): void {
    if (!this.checkedAtStart) {
      this.checkedAtStart = true;
      this.chargeUninstrumented();
    }
    super.beginTest(testFile, suite);
  }

  override flush(testFile?: string): void {
    this.chargeUninstrumented();
    super.flush(testFile);
  }

  /**
   * Project files V8 ran that were not instrumented: their executed lines go to every test (the
   * `file` scope `*`), so a change to them is never missed. Reported on stderr once per file.
   */
  private chargeUninstrumented(): void {
    let result: V8ScriptCoverage[];
    try {
      ({ result } = postNow<{ result: V8ScriptCoverage[] }>(this.session, 'Profiler.getBestEffortCoverage'));
    } catch (error) {
      process.stderr.write(
        `agentgov coverage: could not look for project code that ran without instrumentation: ` +
          `${(error as Error).message}\n`,
      );
      return;
    }
    const lines = new Map<string, number[]>();
    for (const script of result) {
      const absolute = scriptPathOf(script.url);
      if (!absolute || this.files.has(absolute) || this.charged.has(absolute) || this.inRepo(absolute) === undefined)
        continue;
      if (!script.functions.some((fn) => fn.ranges.some((range) => range.count > 0))) continue;
      try {
        const executed = executedLines(lineSpans(readFileSync(absolute, 'utf8')), script.functions);
        if (executed.length === 0) continue;
        lines.set(absolute, executed);
        this.charged.add(absolute);
        process.stderr.write(
          `agentgov coverage: ${this.inRepo(absolute)} ran without instrumentation ` +
            `(an ES module, or transformed by another loader): its lines count for every ` +
            `test\n`,
        );
      } catch {
        // unreadable: nothing to charge
      }
    }
    if (lines.size > 0) this.chargeToEveryTest(lines);
  }
}

/** Offset of the start of each 1-based line (index 0 unused). */
function lineStarts(code: string): number[] {
  const starts = [0, 0];
  for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** A file's counters with their ranges, and the function each lies in. */
function instrumentedFile(coverage: FileCoverage, code: string): Instrumented {
  const lineStart = lineStarts(code);
  const offset = (position: { line: number; column: number | null }, fallback: number): number => {
    const base = lineStart[position.line];
    return base === undefined ? fallback : base + (position.column ?? 0);
  };
  const locations: Location[] = [];
  const functions = Object.keys(coverage.fnMap).length;
  for (let i = 0; i < functions; i++) locations.push(coverage.fnMap[i]!.loc);
  const statements = Object.keys(coverage.statementMap).length;
  for (let i = 0; i < statements; i++) locations.push(coverage.statementMap[i]!);
  const branches: Array<[string, number]> = [];
  for (const [key, branch] of Object.entries(coverage.branchMap)) {
    if (!OPERAND_BRANCHES.has(branch.type)) continue;
    branch.locations.forEach((loc, i) => {
      if (loc.start.line > 0) {
        branches.push([key, i]);
        locations.push(loc);
      }
    });
  }
  const n = locations.length;
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    starts[i] = offset(locations[i]!.start, 0);
    ends[i] = offset(locations[i]!.end, code.length);
  }
  // The innermost function around each counter: a sweep in start order with a stack of open functions.
  const within = new Int32Array(n).fill(-1);
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => starts[a]! - starts[b]! || ends[b]! - ends[a]! || a - b,
  );
  const open: number[] = [];
  for (const i of order) {
    while (open.length > 0 && ends[open.at(-1)!]! < ends[i]!) open.pop();
    if (i < functions) {
      within[i] = i;
      open.push(i);
    } else within[i] = open.at(-1) ?? -1;
  }
  return {
    spans: lineSpans(code),
    starts,
    ends,
    within,
    functions,
    statements,
    branches,
    previous: new Float64Array(n),
    length: code.length,
  };
}

/**
 * The lines run since the previous take, read from counter ranges by V8's rule (`executedLines`).
 */
function movedLines(file: Instrumented, coverage: FileCoverage): number[] {
  const { previous, functions, statements, branches } = file;
  const n = previous.length;
  let moved: number[] | undefined;
  const s = coverage.s as unknown as ArrayLike<number>;
  const f = coverage.f as unknown as ArrayLike<number>;
  for (let i = 0; i < n; i++) {
    let value: number;
    if (i < functions) value = f[i]!;
    else if (i < functions + statements) value = s[i - functions]!;
    else {
      const [key, index] = branches[i - functions - statements]!;
      value = coverage.b[key]?.[index] ?? 0;
    }
    if (value !== previous[i]) (moved ??= []).push(i, value - previous[i]!);
    previous[i] = value;
  }
  if (!moved) return [];
  // What ran: positive ranges. What did not, where it matters (nested in what ran): every function
  // that was not called (its body stays uncovered even inside a statement that ran, as a module
  // body's `x = function () {…}`), and the statements and operands that were skipped within the
  // functions that ran or, when the top level ran (loading), at the top level.
  const ran = new Set<number>();
  const movedSet = new Set<number>();
  const ranges: V8Range[] = [];
  for (let k = 0; k < moved.length; k += 2) {
    const i = moved[k]!;
    movedSet.add(i);
    ran.add(file.within[i]!);
    ranges.push({ startOffset: file.starts[i]!, endOffset: file.ends[i]!, count: moved[k + 1]! });
  }
  for (let i = 0; i < n; i++)
    if (!movedSet.has(i) && (i < functions || ran.has(file.within[i]!)))
      ranges.push({ startOffset: file.starts[i]!, endOffset: file.ends[i]!, count: 0 });
  // The top level ran (the module was loaded): as V8's script range, every line outside the
  // functions that did not run — the directives and declarations no counter stands for.
  if (ran.has(-1)) ranges.push({ startOffset: 0, endOffset: file.length, count: 1 });
  return executedLines(file.spans, [{ functionName: '', isBlockCoverage: true, ranges }]);
}
