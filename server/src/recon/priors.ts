import type { RetrievalQuery } from '@agentgov/core';
import type { RankedCandidate } from './fuse.js';

const TEST_PATH = /(^|\/)(tests?|__tests__|testing|spec|specs)\/|\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)test_[^/]*\.py$|_test\.py$|(^|\/)conftest\.py$/;
const PERIPHERAL_PATH = /(^|\/)(examples?|samples?|demos?|docs?|benchmarks?|bench|scripts|vendor|third_party|public|fixtures?|dist|build|out|generated)\/|\.min\.js$/;
const PERIPHERAL_WORDS = /\b(examples?|samples?|demos?|docs?|documentation|benchmarks?|bench|scripts?|vendor(ed)?)\b/i;
const TEST_WORDS = /\b(tests?|testing|spec|specs|fixtures?|conftest|pytest|mocha|jest|vitest|coverage)\b/i;

export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path);
}

export interface PriorWeights {
  /** Score multiplier of test code when the task does not talk about tests. */
  testCode: number;
  /** Score multiplier of examples, docs, benchmarks, scripts and vendored code when the task does not name them. */
  peripheralCode: number;
  /** Each further definition of a file already ranked above keeps this share of its score. */
  sameFileDecay: number;
}

// A task that does not mention tests or examples/docs/scripts rarely changes them: on the visible
// commit sets, 0.3 beats 0.5 everywhere (express most: its test tree is as large as its code).
export const DEFAULT_PRIORS: PriorWeights = { testCode: 0.3, peripheralCode: 0.3, sameFileDecay: 0.75 };

/**
 * Re-ranks fused candidates with priors: tests rank below the code they test unless the task is
 * about tests, examples/docs/benchmarks/vendored code below the product code unless named, and a file's second, third ... definitions decay so the top of the list covers
 * more places instead of one large file. Returns a new, re-sorted list.
 */
export function applyPriors(ranked: readonly RankedCandidate[], query: RetrievalQuery, weights: PriorWeights = DEFAULT_PRIORS): RankedCandidate[] {
  const aboutTests = TEST_WORDS.test(query.task) || query.pins.some(isTestPath);
  const aboutPeriphery = PERIPHERAL_WORDS.test(query.task);
  const adjusted = ranked.map((c) => {
    let score = c.score;
    // Only what the caller named outright (seeds, pins) is exempt; a name dropped in the task text is not.
    const exempt = c.named >= 1;
    if (!exempt && !aboutTests && isTestPath(c.def.path)) score *= weights.testCode;
    if (!exempt && !aboutPeriphery && PERIPHERAL_PATH.test(c.def.path)) score *= weights.peripheralCode;
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
