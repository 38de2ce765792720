import type { AgentgovConfig, AgentgovError, TestRunner } from '@agentgov/core';
import type { RepositoryIndex } from '../index/repository-index.js';
import type { ToolContext } from '../tools/tool.js';
import { CoverageStore } from './coverage-store.js';
import { TestScheduler } from './test-scheduler.js';

interface TestImpact {
  store: CoverageStore;
  scheduler: TestScheduler | undefined;
}

const byIndex = new WeakMap<RepositoryIndex, TestImpact>();

/** The coverage store of an index (one per index; tables live in the index database). */
export function coverageStoreOf(index: RepositoryIndex): CoverageStore {
  let impact = byIndex.get(index);
  if (!impact) byIndex.set(index, (impact = { store: new CoverageStore(index.db, index.root), scheduler: undefined }));
  return impact.store;
}

/**
 * The repository's test scheduler, started by the first test-impact call of a read-write session.
 * A read-only session never starts it (running tests executes the project's code); it sees what an
 * earlier session built. Index updates forward changed files to it.
 */
export function schedulerFor(
  ctx: Pick<ToolContext, 'index' | 'host' | 'logger' | 'session' | 'repoRoot'> & {
    config?: Pick<AgentgovConfig, 'server'>;
  },
  niceness = ctx.config?.server.test_impact?.niceness ?? 10,
): TestScheduler | undefined {
  const store = coverageStoreOf(ctx.index);
  const impact = byIndex.get(ctx.index)!;
  if (impact.scheduler) {
    impact.scheduler.refreshStale();
    return impact.scheduler;
  }
  if (ctx.session.readOnly) return undefined;
  const runners: TestRunner[] = [...ctx.host.registries.testRunners.values()];
  const scheduler = new TestScheduler({ root: ctx.repoRoot, store, runners, logger: ctx.logger, niceness });
  impact.scheduler = scheduler;
  ctx.index.on('updated', (update: { changedFiles: string[] }) => scheduler.filesChanged(update.changedFiles));
  return scheduler;
}

/**
 * The scheduler's error a test-impact tool answers with: a broken config always; a missing runner
 * only when no imported report (`coverage_import`) can answer instead.
 */
export function schedulerFailure(
  scheduler: TestScheduler | undefined,
  store: CoverageStore,
): AgentgovError | undefined {
  const failure = scheduler?.error();
  if (failure?.code === 'E_TEST_RUNNER_MISSING' && store.hasImportedCoverage()) return undefined;
  return failure;
}

/** The scheduler when one runs for this index, without starting one. */
export function runningScheduler(index: RepositoryIndex): TestScheduler | undefined {
  return byIndex.get(index)?.scheduler;
}
