import type { LanguagePack, TestRunner } from '@agentgov/core';
import type { DirectedGraph } from 'graphology';
import type { Definition } from '../index/types.js';
import { changeInCoveredVersion, changeOf, type FileChange } from './changed-definitions.js';
import type { CoverageStore, StoredTestCase } from './coverage-store.js';

export type CandidateSource = 'coverage' | 'import-time' | 'call-graph' | 'import-graph';

/** One test that can fail because of the change. */
export interface TestCandidate {
  test_id: string;
  file: string;
  /**
   * 0: its coverage hits a changed definition; n: it covers a caller n hops up the reference graph; import-graph
   * candidates: the import hops.
   */
  distance: number;
  /** 0..1: how sure the selection is that this test exercises the change (see docs/tools.md). */
  confidence: number;
  evidence: {
    source: CandidateSource;
    /** Definitions (`path:qualified_name`) through which it was reached: the changed one, or the caller it covers. */
    definitions: string[];
    /** Changed lines (HEAD numbering) the test itself ran, when it ran any. */
    changed_lines_hit: number[];
  };
  /** Shell command that runs just this test. */
  command: string;
  /** Duration of its last run (ms), when known. */
  duration_ms?: number;
}

export interface ChangedFileSummary {
  path: string;
  status: FileChange['status'];
  changed_lines: number[];
  definitions: { def_uid: string; qualified_name: string; kind: string; start_line: number; end_line: number }[];
  /**
   * `fresh`: coverage taken at HEAD's version; `stale`: at another version; `missing`: no test's coverage touches the
   * file.
   */
  coverage: 'fresh' | 'stale' | 'missing' | 'not-applicable';
}

export interface BlastRadiusResult {
  candidates: TestCandidate[];
  changed: ChangedFileSummary[];
  /** Plain-language statements about gaps: missing or stale coverage, uncovered changed lines. */
  notes: string[];
  counts: { candidates: number; suite_tests: number; by_distance: Record<string, number> };
}

export interface BlastRadiusInput {
  root: string;
  changedFiles: string[];
  maxHops: number;
  store: CoverageStore;
  languages: readonly LanguagePack[];
  defGraph: DirectedGraph;
  fileGraph: DirectedGraph;
  /** The index's current definition of a def_uid (callers live in other files). */
  definition(defUid: string): Definition | undefined;
  /** The runner whose command runs a test, when one is known. */
  runner: TestRunner | undefined;
  /** Whether a repository file is a test file. */
  isTestFile(path: string): boolean;
}

const CONFIDENCE = { exactLine: 1, definition: 0.85, importTime: 0.7, hop: 0.5, importGraph: 0.3 } as const;

/** Test files that import `path` directly or transitively, with their import distance (1 = direct). */
export function testFilesReaching(
  fileGraph: DirectedGraph,
  path: string,
  isTestFile: (path: string) => boolean,
): Map<string, number> {
  const out = new Map<string, number>();
  if (!fileGraph.hasNode(path)) return out;
  const seen = new Set([path]);
  let frontier = [path];
  for (let hops = 1; frontier.length; hops++) {
    const next: string[] = [];
    for (const node of frontier) {
      for (const importer of fileGraph.inNeighbors(node)) {
        if (seen.has(importer)) continue;
        seen.add(importer);
        next.push(importer);
        if (isTestFile(importer)) out.set(importer, hops);
      }
    }
    frontier = next;
  }
  return out;
}

function defLabel(def: Pick<Definition, 'path' | 'qualified_name'>): string {
  return `${def.path}:${def.qualified_name}`;
}

class CandidateSet {
  readonly byId = new Map<string, TestCandidate>();

  constructor(
    private readonly tests: Map<string, StoredTestCase>,
    private readonly runner: TestRunner | undefined,
  ) {}

  add(
    testId: string,
    distance: number,
    confidence: number,
    source: CandidateSource,
    definition: string,
    linesHit: number[],
  ): void {
    const existing = this.byId.get(testId);
    if (existing) {
      if (existing.distance < distance || (existing.distance === distance && existing.confidence > confidence)) {
        if (existing.distance === distance && !existing.evidence.definitions.includes(definition))
          existing.evidence.definitions.push(definition);
        return;
      }
    }
    const stored = this.tests.get(testId);
    const file = stored?.file ?? testId.split(/::| > /)[0]!;
    const command =
      stored && this.runner?.testCommand
        ? this.runner.testCommand({ id: testId, file, titlePath: stored.title_path })
        : (this.runner?.command([file]) ?? file);
    const merged =
      existing && existing.distance === distance
        ? [...new Set([...existing.evidence.definitions, definition])]
        : [definition];
    this.byId.set(testId, {
      test_id: testId,
      file,
      distance,
      confidence,
      evidence: { source, definitions: merged, changed_lines_hit: [...new Set(linesHit)].sort((a, b) => a - b) },
      command,
      ...(stored ? { duration_ms: Math.round(stored.duration_ms) } : {}),
    });
  }

  /**
   * Nearest and most certain first. Within one (distance, confidence) tier: tests in a test file named
   * after a function holding a changed line first, then tests whose id (file and title) names such a
   * function, then those naming more words of the changed
   * lines (an edit of `'json escape'` handling → the tests titled "json escape"), then those that ran
   * more changed lines, then focused tests (fewer covered lines), then fast ones.
   */
  ranked(sizes: ReadonlyMap<string, number>, names: string[], words: string[]): TestCandidate[] {
    const affinity = new Map<string, number>();
    const mentions = new Map<string, number>();
    for (const candidate of this.byId.values()) {
      const id = candidate.test_id.toLowerCase();
      const fileWords = candidate.file
        .toLowerCase()
        .split('/')
        .pop()!
        .replace(/\.[^.]+$/, '')
        .split(/[^a-z0-9]+/);
      // 2: the test file is named after the function (test/res.redirect.js, tests/test_views.py); 1: the id mentions it
      affinity.set(
        candidate.test_id,
        names.some((name) => fileWords.includes(name)) ? 2 : names.some((name) => id.includes(name)) ? 1 : 0,
      );
      mentions.set(candidate.test_id, words.filter((word) => id.includes(word)).length);
    }
    const within = (a: TestCandidate, b: TestCandidate) =>
      affinity.get(b.test_id)! - affinity.get(a.test_id)! ||
      mentions.get(b.test_id)! - mentions.get(a.test_id)! ||
      b.evidence.changed_lines_hit.length - a.evidence.changed_lines_hit.length ||
      (sizes.get(a.test_id) ?? Infinity) - (sizes.get(b.test_id) ?? Infinity) ||
      (a.duration_ms ?? 0) - (b.duration_ms ?? 0) ||
      a.test_id.localeCompare(b.test_id);
    const sorted = [...this.byId.values()].sort(
      (a, b) => a.distance - b.distance || b.confidence - a.confidence || within(a, b),
    );
    const tiers: TestCandidate[][] = [];
    for (const candidate of sorted) {
      const last = tiers.at(-1);
      if (last && last[0]!.distance === candidate.distance && last[0]!.confidence === candidate.confidence)
        last.push(candidate);
      else tiers.push([candidate]);
    }
    return tiers.flatMap((tier) => interleaveWithSpread(tier));
  }
}

/**
 * Two candidates in ranked order, then the best one from the next test file not yet drawn from,
 * and so on: a change that breaks many tests often breaks them in a file the ranking puts low, so
 * the first candidates also span several test files (express: first-10 catch 80 → 84 of 91 mutants).
 */
function interleaveWithSpread(ranked: TestCandidate[]): TestCandidate[] {
  const byFile = new Map<string, TestCandidate[]>();
  for (const candidate of ranked) byFile.set(candidate.file, [...(byFile.get(candidate.file) ?? []), candidate]);
  const queues = [...byFile.values()];
  const spread: TestCandidate[] = [];
  for (let round = 0; spread.length < ranked.length; round++)
    for (const queue of queues) if (queue[round]) spread.push(queue[round]!);
  const out: TestCandidate[] = [];
  const taken = new Set<string>();
  let next = 0;
  let nextSpread = 0;
  while (out.length < ranked.length) {
    for (let k = 0; k < 2 && next < ranked.length; next++) {
      if (taken.has(ranked[next]!.test_id)) continue;
      taken.add(ranked[next]!.test_id);
      out.push(ranked[next]!);
      k++;
    }
    while (nextSpread < spread.length && taken.has(spread[nextSpread]!.test_id)) nextSpread++;
    if (nextSpread < spread.length) {
      taken.add(spread[nextSpread]!.test_id);
      out.push(spread[nextSpread]!);
    }
  }
  return out;
}

/**
 * Whether coverage of the file was taken at HEAD's version, at the working version (after the
 * edit), at an earlier version whose text the store kept (after an earlier edit: the change is then
 * read in that version's numbering), at none of these, or never.
 */
function coverageState(
  store: CoverageStore,
  change: FileChange,
): { state: ChangedFileSummary['coverage']; side: 'head' | 'current' | 'covered'; text?: string } {
  if (change.status === 'added') return { state: 'not-applicable', side: 'head' };
  const hashes = store.coverageHashes(change.path);
  if (hashes.size === 0) return { state: 'missing', side: 'head' };
  if (change.headHash !== null && hashes.has(change.headHash)) return { state: 'fresh', side: 'head' };
  if (change.currentHash !== null && hashes.has(change.currentHash)) return { state: 'fresh', side: 'current' };
  for (const [hash] of [...hashes].sort((a, b) => b[1] - a[1])) {
    const text = change.status === 'modified' ? store.coverageSource(hash) : undefined;
    if (text !== undefined) return { state: 'fresh', side: 'covered', text };
  }
  return { state: 'stale', side: 'head' };
}

/**
 * Changed files → changed definitions (against HEAD) → tests whose coverage hits them (distance
 * 0) → tests covering their callers up to `maxHops` in the reference graph → test files reaching
 * them through the import graph where coverage is missing or stale.
 */
export async function blastRadius(input: BlastRadiusInput): Promise<BlastRadiusResult> {
  const { store } = input;
  const tests = new Map(store.allTests().map((test) => [test.test_id, test]));
  const candidates = new CandidateSet(tests, input.runner);
  const notes: string[] = [];
  const changed: ChangedFileSummary[] = [];
  const anyCoverage = store.hasCoverage();
  if (!anyCoverage)
    notes.push(
      'No per-test coverage is stored yet; candidates come from the import graph ' +
        'only (the test scheduler builds coverage in the background).',
    );
  const needImportGraph: string[] = [];
  const ranking = { names: [] as string[], words: [] as string[] };
  const frontier = new Map<string, number>();

  for (const path of input.changedFiles) {
    const fullChange = await changeOf(input.root, path, input.languages);
    ranking.names.push(...fullChange.ranking.names);
    ranking.words.push(...fullChange.ranking.words);
    const located: ReturnType<typeof coverageState> = anyCoverage
      ? coverageState(store, fullChange)
      : { state: 'missing', side: 'head' };
    const state = located.state;
    // Coverage taken after the edit (the scheduler refreshed it) is in the working version's numbering;
    // coverage taken after an earlier edit, in that version's.
    let change: FileChange = fullChange;
    if (located.side === 'current') change = { ...fullChange, ...fullChange.currentSide };
    else if (located.side === 'covered' && located.text !== undefined)
      change = { ...fullChange, ...(await changeInCoveredVersion(input.root, path, located.text, input.languages)) };
    if (located.side === 'covered')
      notes.push(
        `Coverage of ${path} was taken at an earlier edit of it (neither HEAD nor ` +
          `the working version); the changed lines are read against that version.`,
      );
    changed.push({
      path,
      status: change.status,
      changed_lines: change.changedLines,
      definitions: change.changedDefinitions.map((d) => ({
        def_uid: d.def_uid,
        qualified_name: d.qualified_name,
        kind: d.kind,
        start_line: d.start_line,
        end_line: d.end_line,
      })),
      coverage: state,
    });
    if (change.status === 'unchanged') {
      notes.push(`${path} does not differ from HEAD; nothing to select for it.`);
      continue;
    }
    if (state === 'missing' || state === 'stale' || change.status === 'added') needImportGraph.push(path);
    if (state === 'stale')
      notes.push(
        `Coverage of ${path} was taken at another version than HEAD; line matches ` +
          `may be off (the scheduler re-runs its tests). Import-graph candidates are ` +
          `added.`,
      );
    if (state === 'missing' && anyCoverage && change.status !== 'added')
      notes.push(
        `No test's coverage touches ${path}: either no test runs it or coverage for ` +
          `it is missing. Import-graph candidates are added.`,
      );
    if (change.status === 'added')
      notes.push(`${path} is new: no coverage can exist yet; import-graph candidates are listed.`);
    if (state === 'missing') continue;

    // Distance 0: tests whose own coverage hits a changed definition.
    for (const def of change.changedDefinitions) {
      frontier.set(def.def_uid, 0);
      const exact = store.testsCoveringLines(
        path,
        change.changedLines.filter((line) => line >= def.start_line && line <= def.end_line),
      );
      for (const [testId] of store.testsCoveringRange(path, def.start_line, def.end_line)) {
        const hit = exact.get(testId) ?? [];
        candidates.add(
          testId,
          0,
          hit.length ? CONFIDENCE.exactLine : CONFIDENCE.definition,
          'coverage',
          defLabel(def),
          hit,
        );
      }
    }
    // Changed lines outside every definition the language pack extracts (e.g. `res.send = function (...) {...}`
    // bodies, module code): the tests that ran those very lines.
    if (change.moduleLines.length) {
      for (const [testId, hit] of store.testsCoveringLines(path, change.moduleLines))
        candidates.add(testId, 0, CONFIDENCE.exactLine, 'coverage', `${path}:${hit.join(',')}`, hit);
    }
    // Import-time lines (module bodies, decorators, default values): every test whose file loads the module.
    const importTime = store.importTimeLines(path);
    const importTimeChanged = change.changedLines.filter((line) => importTime.has(line));
    if (importTimeChanged.length) {
      const loaders = new Set(importTimeChanged.flatMap((line) => importTime.get(line)!).filter((id) => id !== '*'));
      for (const testFile of testFilesReaching(input.fileGraph, path, input.isTestFile).keys()) loaders.add(testFile);
      const label = `${path}:<module>`;
      for (const testFile of loaders)
        for (const test of store.testsOfFile(testFile))
          candidates.add(test.test_id, 0, CONFIDENCE.importTime, 'import-time', label, importTimeChanged);
    }
    const uncovered = change.changedLines.filter(
      (line) => !importTime.has(line) && store.testsCoveringLines(path, [line]).size === 0,
    );
    if (uncovered.length && uncovered.length === change.changedLines.length)
      notes.push(`No test ran the changed lines of ${path} (${uncovered.join(', ')}) when coverage was taken.`);
  }

  // Hops: tests covering the callers of changed definitions, up the reference graph.
  let layer = [...frontier.keys()].filter((uid) => input.defGraph.hasNode(uid));
  const seen = new Set(layer);
  for (let hop = 1; hop <= input.maxHops && layer.length; hop++) {
    const next: string[] = [];
    for (const uid of layer) {
      for (const caller of input.defGraph.inNeighbors(uid)) {
        if (seen.has(caller)) continue;
        seen.add(caller);
        next.push(caller);
        const def = input.definition(caller);
        if (!def || input.isTestFile(def.path)) continue;
        for (const [testId] of store.testsCoveringRange(def.path, def.start_line, def.end_line))
          candidates.add(testId, hop, CONFIDENCE.hop / hop, 'call-graph', defLabel(def), []);
      }
    }
    layer = next;
  }

  // Import graph: where coverage cannot answer, the test files that load the changed file.
  for (const path of needImportGraph) {
    for (const [testFile, hops] of testFilesReaching(input.fileGraph, path, input.isTestFile)) {
      const known = store.testsOfFile(testFile);
      const label = `${path}:<imported>`;
      if (known.length)
        for (const test of known)
          candidates.add(test.test_id, hops, CONFIDENCE.importGraph / hops, 'import-graph', label, []);
      else candidates.add(testFile, hops, CONFIDENCE.importGraph / hops, 'import-graph', label, []);
    }
  }

  const names = [
    ...new Set([
      ...changed.flatMap((file) => file.definitions.map((d) => d.qualified_name.split('.').pop()!.toLowerCase())),
      ...ranking.names,
    ]),
  ].filter((name) => name.length >= 3 && name !== '__init__');
  const ranked = candidates.ranked(store.coverageSizes(), names, ranking.words);
  if (!ranked.length && input.changedFiles.length)
    notes.push('No test candidates: no stored coverage or import path connects a test to the changed files.');
  const byDistance: Record<string, number> = {};
  for (const candidate of ranked) byDistance[candidate.distance] = (byDistance[candidate.distance] ?? 0) + 1;
  return {
    candidates: ranked,
    changed,
    notes,
    counts: { candidates: ranked.length, suite_tests: tests.size, by_distance: byDistance },
  };
}
