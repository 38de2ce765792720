import type { FileClass, RetrievalIndex, RetrievalQuery } from '@agentgov/core';
import type { RankedCandidate } from './fuse.js';

// Type tests (`*.test-d.ts`, `dts-test/`, `test-d/`) are tests too: they check the types, not ship them.
const TEST_PATH = new RegExp(
  String.raw`(^|\/)(tests?|__tests__|testing|spec|specs|` +
    String.raw`dts-tests?|test-d|type-?tests?|__typetests__)\/|` +
    String.raw`\.(test|spec)(-d)?\.[cm]?[jt]sx?$|(^|\/)test_[^/]*\.py$|` +
    String.raw`_test\.py$|(^|\/)conftest\.py$`,
);
const PERIPHERAL_PATH = new RegExp(
  String.raw`(^|\/)(examples?|samples?|demos?|docs?|benchmarks?|` +
    String.raw`bench|scripts|vendor|third_party|public|` +
    String.raw`fixtures?|dist|build|out|generated)\/|\.min\.js$`,
);
const PERIPHERAL_WORDS = /\b(examples?|samples?|demos?|docs?|documentation|benchmarks?|bench|scripts?|vendor(ed)?)\b/i;
const GENERATED_WORDS = /\b(generated|codegen|generator|regenerate)\b/i;
/** Words that say a task is about tests, unless this repository's product code uses them (see isProductWord). */
export const TEST_VOCABULARY = [
  'test',
  'tests',
  'testing',
  'spec',
  'specs',
  'fixture',
  'fixtures',
  'conftest',
  'pytest',
  'mocha',
  'jest',
  'vitest',
  'coverage',
];
const TEST_WORDS = new RegExp(`\\b(${TEST_VOCABULARY.join('|')})\\b`, 'gi');

export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path);
}

export function isPeripheralPath(path: string): boolean {
  return PERIPHERAL_PATH.test(path);
}

/** What the priors may ask the index: the optional per-repository file classes and product vocabulary. */
export type PriorIndex = Pick<RetrievalIndex, 'fileClass' | 'isProductWord' | 'isTestFile'>;

/**
 * True when the task talks about tests: it uses a test word that is not this repository's product
 * vocabulary (`fixture` in a test framework's own repository is not), or pins a test file.
 */
export function isAboutTests(query: RetrievalQuery, index?: PriorIndex): boolean {
  if (query.pins.some((pin) => isTestPath(pin) || index?.isTestFile?.(pin) === true)) return true;
  for (const m of query.task.matchAll(TEST_WORDS)) {
    const word = (m[1] ?? '').toLowerCase();
    if (!index?.isProductWord?.(word)) return true;
  }
  return false;
}

export interface PriorWeights {
  /** Score multiplier of test code when the task does not talk about tests. */
  testCode: number;
  /** Score multiplier of examples, docs, benchmarks, scripts and vendored code when the task does not name them. */
  peripheralCode: number;
  /** Each further definition of a file already ranked above keeps this share of its score. */
  sameFileDecay: number;
  /** Score multiplier of vendored and generated code (see fileClass) when the task does not name it. */
  foreignCode: number;
}

// A task that does not mention tests or examples/docs/scripts rarely changes them: on the visible
// commit sets, 0.3 beats 0.5 everywhere (express most: its test tree is as large as its code).
export const DEFAULT_PRIORS: PriorWeights = {
  testCode: 0.3,
  peripheralCode: 0.3,
  sameFileDecay: 0.75,
  foreignCode: 0.3,
};

/**
 * Re-ranks fused candidates with priors: tests rank below the code they test unless the task is
 * about tests, examples/docs/benchmarks/vendored code below the product code unless named, and a file's second, third
 * ... definitions decay so the top of the list covers
 * more places instead of one large file. Returns a new, re-sorted list.
 */
export function applyPriors(
  ranked: readonly RankedCandidate[],
  query: RetrievalQuery,
  weights: PriorWeights = DEFAULT_PRIORS,
  index?: PriorIndex,
): RankedCandidate[] {
  const aboutTests = isAboutTests(query, index);
  const aboutPeriphery = PERIPHERAL_WORDS.test(query.task);
  const taskWords = new Set(query.task.toLowerCase().split(/[^a-z0-9_.-]+/));
  const adjusted = ranked.map((c) => {
    let score = c.score;
    // Only what the caller named outright (seeds, pins) is exempt; a name dropped in the task text is not.
    const exempt = c.named >= 1;
    let demoted = false;
    if (!exempt && !aboutTests && (isTestPath(c.def.path) || index?.isTestFile?.(c.def.path) === true)) {
      score *= weights.testCode;
      demoted = true;
    }
    if (!exempt && !aboutPeriphery && PERIPHERAL_PATH.test(c.def.path)) {
      score *= weights.peripheralCode;
      demoted = true;
    }
    const foreign = exempt || demoted ? undefined : index?.fileClass?.(c.def.path);
    if (foreign && !namesForeign(foreign, query, taskWords)) {
      score *= weights.foreignCode;
      return { ...c, score, demoted: `${foreign.kind} (${foreign.reason})` };
    }
    return { ...c, score };
  });
  adjusted.sort((a, b) => b.score - a.score || a.def.def_uid.localeCompare(b.def.def_uid));
  const seen = new Map<string, number>();
  for (const c of adjusted) {
    const n = seen.get(c.def.path) ?? 0;
    c.score *= weights.sameFileDecay ** n;
    seen.set(c.def.path, n + 1);
  }
  return adjusted.sort((a, b) => b.score - a.score || a.def.def_uid.localeCompare(b.def.def_uid));
}

/** A task that names vendored code (its package name, or just "vendored") or asks about generated code is about it. */
function namesForeign(foreign: FileClass, query: RetrievalQuery, taskWords: ReadonlySet<string>): boolean {
  if (foreign.kind === 'generated') return GENERATED_WORDS.test(query.task);
  if (/\bvendor(ed|ing)?\b/i.test(query.task)) return true;
  return (
    foreign.name !== undefined &&
    (taskWords.has(foreign.name.toLowerCase()) ||
      query.identifiers.some((i) => i.toLowerCase().split('.').includes(foreign.name!.toLowerCase())))
  );
}
