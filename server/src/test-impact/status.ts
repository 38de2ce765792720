import type { RepositoryIndex } from '../index/repository-index.js';
import type { SessionState } from '../tools/tool.js';
import { coverageStoreOf } from './scheduler-for.js';
import type { SchedulerStatus, TestScheduler } from './test-scheduler.js';
import { z } from 'zod';

/** Freshness of stored coverage and what the scheduler does, as every test-impact answer shows it. */
/** The output schema of a TestImpactStatus, shared by the three test-impact tools. */
export const testImpactStatusSchema = z
  .object({
    coverage: z.enum(['none', 'fresh', 'stale']),
    tests: z.number().int(),
    stale_files: z.array(z.string()),
    scheduler: z.object({}).passthrough().nullable(),
    summary: z.string(),
  })
  .passthrough();

export interface TestImpactStatus {
  /**
   * `none`: no coverage stored; `fresh`: every covered file unchanged since its tests ran; `stale`: some changed since.
   */
  coverage: 'none' | 'fresh' | 'stale';
  tests: number;
  stale_files: string[];
  scheduler: SchedulerStatus | null;
  summary: string;
}

export function testImpactStatus(
  ctx: { index: RepositoryIndex; session: SessionState },
  scheduler: TestScheduler | undefined,
): TestImpactStatus {
  const store = coverageStoreOf(ctx.index);
  store.forgetHashes();
  const stale = [...store.staleFiles().keys()].sort();
  const coverage = !store.hasCoverage() ? 'none' : stale.length ? 'stale' : 'fresh';
  const status = scheduler?.status() ?? null;
  const schedulerText = status
    ? `scheduler ${status.state} (${status.activity})`
    : ctx.session.readOnly
      ? 'scheduler not started: read-only session (running tests executes project code)'
      : 'scheduler not started';
  const coverageText =
    coverage === 'none'
      ? 'no per-test coverage stored yet'
      : coverage === 'stale'
        ? `coverage of ${stale.length} changed file(s) is stale: ` +
          `${stale.slice(0, 5).join(', ')}${stale.length > 5 ? ', …' : ''}`
        : 'coverage fresh';
  return {
    coverage,
    tests: store.testCount(),
    stale_files: stale,
    scheduler: status,
    summary: `${coverageText}; ${store.testCount()} tests known; ${schedulerText}`,
  };
}
