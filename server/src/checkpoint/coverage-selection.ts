import type { LanguagePack } from '@agentgov/core';
import { blastRadius } from '../test-impact/blast-radius.js';
import type { CoverageStore } from '../test-impact/coverage-store.js';
import { coverageStoreOf, runningScheduler, schedulerFor } from '../test-impact/scheduler-for.js';
import type { ToolContext } from '../tools/tool.js';

/** The per-test candidates at distance 0 that stored coverage gives for the changed files. */
export interface CoverageCandidates {
  /** Changed files whose coverage is fresh: their tests come from coverage, not the import graph. */
  covered: Set<string>;
  /** Test file → its candidate test ids (their coverage hits a changed definition or changed module-level line). */
  byFile: Map<string, string[]>;
  notes: string[];
}

/**
 * The coverage store of the repository, after making sure the background test scheduler runs
 * (a checkpoint starts it in a read-write session; a research-only one only reads what exists).
 */
export function coverageFor(ctx: ToolContext): CoverageStore {
  if (ctx.session.readOnly) runningScheduler(ctx.index);
  else schedulerFor(ctx);
  const store = coverageStoreOf(ctx.index);
  store.forgetHashes();
  return store;
}

/** blast_radius at distance 0 for the changed files; undefined when no per-test coverage is stored. */
export async function coverageCandidates(ctx: ToolContext, store: CoverageStore, changed: string[]): Promise<CoverageCandidates | undefined> {
  if (!store.hasCoverage()) return undefined;
  const runner = runningScheduler(ctx.index)?.runner();
  const knownTestFiles = new Set(store.allTests().map((test) => test.file));
  // the runner answers from the project's config (a glob per question): once per path
  const asked = new Map<string, boolean>();
  const askRunner = (path: string) => {
    if (!asked.has(path)) asked.set(path, runner?.isTestFile(ctx.repoRoot, path) ?? false);
    return asked.get(path)!;
  };
  const result = await blastRadius({
    root: ctx.repoRoot,
    changedFiles: changed,
    maxHops: 0,
    store,
    languages: ctx.host.registries.languages.values() as LanguagePack[],
    defGraph: ctx.index.defGraph(),
    fileGraph: ctx.index.fileGraph(),
    definition: (uid) => ctx.index.definition(uid),
    runner,
    isTestFile: (path) => knownTestFiles.has(path) || askRunner(path),
  });
  const fresh = result.changed.filter((c) => c.coverage === 'fresh' && c.status !== 'unchanged' && c.status !== 'added').map((c) => c.path);
  const byFile = new Map<string, string[]>();
  const reached = new Set<string>();
  for (const candidate of result.candidates) {
    if (candidate.distance !== 0 || (candidate.evidence.source !== 'coverage' && candidate.evidence.source !== 'import-time')) continue;
    byFile.set(candidate.file, [...(byFile.get(candidate.file) ?? []), candidate.test_id]);
    for (const label of candidate.evidence.definitions) for (const path of fresh) if (label.startsWith(`${path}:`)) reached.add(path);
  }
  // a changed file whose coverage names no test (no changed definition found, or no test ran it) keeps the import graph
  const covered = new Set(fresh.filter((path) => reached.has(path)));
  const notes = [...result.notes];
  for (const path of fresh) if (!reached.has(path)) notes.push(`Coverage names no test for the change in ${path}; the test files importing it run instead.`);
  return { covered, byFile, notes };
}
