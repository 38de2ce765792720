import { AsyncParallelHook, AsyncSeriesBailHook, AsyncSeriesWaterfallHook, SyncHook } from 'tapable';
import type { Assessment, GateVerdict, ToolCallEvent } from '../contracts/events.js';
import type { FrameworkAdapter } from '../contracts/framework.js';
import type { LanguagePack } from '../contracts/language-pack.js';
import type { Linter } from '../contracts/linter.js';
import type { CandidatePool, RetrievalQuery, Retriever } from '../contracts/retriever.js';
import type { RiskRuleSource } from '../contracts/risk-rule.js';
import type { GovernanceRecord, Sink } from '../contracts/sink.js';
import type { TestRunner } from '../contracts/test-runner.js';
import { ProviderRegistry } from './registry.js';

/**
 * The one hooks object a host (tool server, governance pipeline) builds and hands to every plugin.
 * It is frozen: plugins tap hooks, they never add or replace them.
 */
export interface AgentgovHooks {
  // ── Registration hooks ─────────────────────────────────────────────────────────────────
  // SyncHook, called exactly once at start-up after every plugin's `apply`. A tap adds named
  // providers to the registry it receives; duplicate names are an error.

  /** Retrievers used by `recon` (lexical, term, symbol, graph, ...). */
  readonly retrievers: SyncHook<[registry: ProviderRegistry<Retriever>]>;
  /** Coding-agent framework adapters (detection, capture parsing, hook installers). */
  readonly frameworks: SyncHook<[registry: ProviderRegistry<FrameworkAdapter>]>;
  /** Destinations for governance records. */
  readonly sinks: SyncHook<[registry: ProviderRegistry<Sink>]>;
  /** Linters used by `checkpoint`. */
  readonly linters: SyncHook<[registry: ProviderRegistry<Linter>]>;
  /** Test runners used by `checkpoint` and the test scheduler. */
  readonly testRunners: SyncHook<[registry: ProviderRegistry<TestRunner>]>;
  /** tree-sitter language packs for the index. */
  readonly languages: SyncHook<[registry: ProviderRegistry<LanguagePack>]>;
  /** Extra risk rules (files or rule objects) for the risk engine. */
  readonly riskRules: SyncHook<[registry: ProviderRegistry<RiskRuleSource>]>;

  // ── Lifecycle hooks ────────────────────────────────────────────────────────────────────

  /**
   * Retrieval. AsyncParallelHook: every tap runs concurrently and adds candidates to the pool
   * under its own name. The recon host taps each registered retriever here; other plugins may
   * tap to observe or contribute. A failing tap fails the retrieval with the plugin named.
   */
  readonly retrieve: AsyncParallelHook<[query: RetrievalQuery, pool: CandidatePool]>;
  /**
   * Assessment of one tool call. AsyncSeriesWaterfallHook: each tap receives the assessment so
   * far and returns the next one. Taps may raise the score; a lower score is only accepted with a
   * `ScoreAdjustment` recorded in `evidence.adjustments` (see `runAssess`), never silently.
   */
  readonly assess: AsyncSeriesWaterfallHook<[assessment: Assessment, event: ToolCallEvent]>;
  /**
   * Emission to sinks. AsyncParallelHook semantics, but the host wraps every tap so that one
   * failing sink is reported and never stops the others (see `runEmit`).
   */
  readonly emit: AsyncParallelHook<[record: GovernanceRecord]>;
  /**
   * Gating a live tool call. AsyncSeriesBailHook: taps run in order; the first one that returns
   * a verdict decides (a policy taps with a low `stage` so a deny comes first). `undefined` means
   * "no opinion"; when nobody decides, the host derives the verdict from the assessment's action.
   */
  readonly gate: AsyncSeriesBailHook<[event: ToolCallEvent, assessment: Assessment], GateVerdict | undefined>;
}

export type HookName = keyof AgentgovHooks;
export const REGISTRATION_HOOKS = [
  'retrievers',
  'frameworks',
  'sinks',
  'linters',
  'testRunners',
  'languages',
  'riskRules',
] as const;
export type RegistrationHookName = (typeof REGISTRATION_HOOKS)[number];

export function createHooks(): AgentgovHooks {
  return Object.freeze({
    retrievers: new SyncHook<[ProviderRegistry<Retriever>]>(['registry']),
    frameworks: new SyncHook<[ProviderRegistry<FrameworkAdapter>]>(['registry']),
    sinks: new SyncHook<[ProviderRegistry<Sink>]>(['registry']),
    linters: new SyncHook<[ProviderRegistry<Linter>]>(['registry']),
    testRunners: new SyncHook<[ProviderRegistry<TestRunner>]>(['registry']),
    languages: new SyncHook<[ProviderRegistry<LanguagePack>]>(['registry']),
    riskRules: new SyncHook<[ProviderRegistry<RiskRuleSource>]>(['registry']),
    retrieve: new AsyncParallelHook<[RetrievalQuery, CandidatePool]>(['query', 'pool']),
    assess: new AsyncSeriesWaterfallHook<[Assessment, ToolCallEvent]>(['assessment', 'event']),
    emit: new AsyncParallelHook<[GovernanceRecord]>(['record']),
    gate: new AsyncSeriesBailHook<[ToolCallEvent, Assessment], GateVerdict | undefined>(['event', 'assessment']),
  });
}

/** The registries filled by the registration hooks. */
export interface Registries {
  retrievers: ProviderRegistry<Retriever>;
  frameworks: ProviderRegistry<FrameworkAdapter>;
  sinks: ProviderRegistry<Sink>;
  linters: ProviderRegistry<Linter>;
  testRunners: ProviderRegistry<TestRunner>;
  languages: ProviderRegistry<LanguagePack>;
  riskRules: ProviderRegistry<RiskRuleSource>;
}

export function createRegistries(): Registries {
  return {
    retrievers: new ProviderRegistry('retriever'),
    frameworks: new ProviderRegistry('framework'),
    sinks: new ProviderRegistry('sink'),
    linters: new ProviderRegistry('linter'),
    testRunners: new ProviderRegistry('test runner'),
    languages: new ProviderRegistry('language'),
    riskRules: new ProviderRegistry('risk rule source'),
  };
}
