import {
  AgentgovError,
  type AgentgovHooks,
  type CandidatePool,
  type ProviderRegistry,
  type RetrievalIndex,
  type RetrievalQuery,
  type Retriever,
  type RetrieverCandidate,
} from '@agentgov/core';

/** Per-call state the retrieve-hook taps read: the index to search and where to record timings. */
interface CallState {
  index: RetrievalIndex;
  timings: Record<string, number>;
}

export interface RetrievalOutcome {
  pool: CandidatePool;
  /** Milliseconds per retriever. */
  timings: Record<string, number>;
  expand: Set<string>;
}

/**
 * Connects the registered retrievers to the host's `retrieve` hook, once per host. Primary
 * retrievers run in parallel through the hook; `expand` retrievers run after them and receive the
 * primary pool as `prior`. Nothing here knows what any retriever does.
 */
export class RetrievalRunner {
  readonly #calls = new WeakMap<CandidatePool, CallState>();
  readonly #expand: Retriever[];

  constructor(
    private readonly hooks: AgentgovHooks,
    registry: ProviderRegistry<Retriever>,
  ) {
    const retrievers = registry.entries();
    this.#expand = retrievers.filter((e) => e.provider.phase === 'expand').map((e) => e.provider);
    for (const { provider, plugin } of retrievers) {
      if (provider.phase === 'expand') continue;
      hooks.retrieve.tapPromise(plugin, async (query, pool) => {
        const state = this.#calls.get(pool);
        if (!state) return;
        await this.#run(provider, plugin, query, pool, state, undefined);
      });
    }
  }

  get names(): string[] {
    return [...this.hooks.retrieve.taps.map((t) => t.name), ...this.#expand.map((r) => r.name)];
  }

  async retrieve(query: RetrievalQuery, index: RetrievalIndex): Promise<RetrievalOutcome> {
    const pool: CandidatePool = new Map();
    const state: CallState = { index, timings: {} };
    this.#calls.set(pool, state);
    await this.hooks.retrieve.promise(query, pool);
    const prior = new Map(
      [...pool].map(([name, candidates]) => [name, candidates as ReadonlyMap<string, RetrieverCandidate>]),
    );
    for (const retriever of this.#expand) await this.#run(retriever, retriever.name, query, pool, state, prior);
    return { pool, timings: state.timings, expand: new Set(this.#expand.map((r) => r.name)) };
  }

  async #run(
    retriever: Retriever,
    plugin: string,
    query: RetrievalQuery,
    pool: CandidatePool,
    state: CallState,
    prior: ReadonlyMap<string, ReadonlyMap<string, RetrieverCandidate>> | undefined,
  ): Promise<void> {
    const started = performance.now();
    let candidates: RetrieverCandidate[];
    try {
      candidates = await retriever.retrieve(query, prior ? { index: state.index, prior } : { index: state.index });
    } catch (error) {
      throw new AgentgovError(
        'E_PLUGIN_FAILED',
        `retriever '${retriever.name}' of plugin ` +
          `${plugin} failed: ${error instanceof Error ? error.message : String(error)}`,
        { plugin, retriever: retriever.name },
        { cause: error },
      );
    }
    const byUid = new Map<string, RetrieverCandidate>();
    for (const candidate of candidates) {
      const existing = byUid.get(candidate.def_uid);
      if (!existing || candidate.score > existing.score) byUid.set(candidate.def_uid, candidate);
    }
    pool.set(retriever.name, byUid);
    state.timings[retriever.name] = Math.round((performance.now() - started) * 10) / 10;
  }
}
