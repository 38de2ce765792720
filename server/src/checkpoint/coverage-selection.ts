import type { CoverageStore } from '../test-impact/coverage-store.js';
import { coverageStoreOf, runningScheduler, schedulerFor } from '../test-impact/scheduler-for.js';
import { blastRadiusIn } from '../tools/blast-radius.js';
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
export async function coverageCandidates(
  ctx: ToolContext,
  store: CoverageStore,
  changed: string[],
): Promise<CoverageCandidates | undefined> {
  if (!store.hasCoverage()) return undefined;
  const result = await blastRadiusIn(ctx, store, runningScheduler(ctx.index)?.runner(), changed, 0);
  const fresh = result.changed
    .filter((c) => c.coverage === 'fresh' && c.status !== 'unchanged' && c.status !== 'added')
    .map((c) => c.path);
  const byFile = new Map<string, string[]>();
  const reached = new Set<string>();
  for (const candidate of result.candidates) {
    if (
      candidate.distance !== 0 ||
      (candidate.evidence.source !== 'coverage' && candidate.evidence.source !== 'import-time')
    )
      continue;
    byFile.set(candidate.file, [...(byFile.get(candidate.file) ?? []), candidate.test_id]);
    for (const label of candidate.evidence.definitions)
      for (const path of fresh) if (label.startsWith(`${path}:`)) reached.add(path);
  }
  // a changed file whose coverage names no test (no changed definition found, or no test ran it) keeps the import graph
  const covered = new Set(fresh.filter((path) => reached.has(path)));
  const notes = [...result.notes];
  for (const path of fresh)
    if (!reached.has(path))
      notes.push(`Coverage names no test for the change in ${path}; the test files importing it run instead.`);
  return { covered, byFile, notes };
}
