import type {
  Assessment,
  EmitFailure,
  FlushOutcome,
  FrameworkAdapter,
  GovernanceDb,
  GovernanceRecord,
  LoadedConfig,
  Logger,
  PluginHost,
  ToolCallEvent,
} from '@agentgov/core';
import { runAssess, runEmit } from '@agentgov/core';
import { ingestCapture, type IngestOptions, type IngestReport } from './ingest.js';
import { loadRiskEngine, type RiskEngine } from './risk-engine.js';
import { connectSinks } from './sinks.js';

export type { IngestOptions, IngestReport } from './ingest.js';
export type { RiskEngine } from './risk-engine.js';

export interface ProcessResult {
  record: GovernanceRecord;
  duplicate: boolean;
  sinkFailures: EmitFailure[];
}

export interface Pipeline {
  /**
   * assess (engine + `assess` waterfall) → record (DB) → emit (sinks; failures counted and reported). Idempotent on
   * `event.id`.
   */
  process(event: ToolCallEvent, options?: { source?: string }): Promise<ProcessResult>;
  /** Assess only; writes nothing anywhere (the Score API). */
  assess(event: ToolCallEvent): Promise<Assessment>;
  /**
   * Ingests one capture file from its stored offset (or from the start with `fromStart`): each
   * chunk's events and the new offset commit in one transaction, so a crash never loses or
   * duplicates; a truncated last line is left for later.
   */
  ingestFile(adapter: FrameworkAdapter, file: string, options?: IngestOptions): Promise<IngestReport>;
  /** Sink failures so far, per sink name. */
  sinkFailureCounts(): Record<string, number>;
  /**
   * Flushes the outbox (what a failing store sink cannot take now stays there for the next run),
   * then flushes and closes the sinks; the database belongs to the caller.
   */
  close(): Promise<FlushOutcome[]>;
}

export interface CreatePipelineOptions {
  host: PluginHost;
  loaded: LoadedConfig;
  db: GovernanceDb;
  logger: Logger;
  engine?: RiskEngine;
  /** Registered sinks to emit to, by name; all of them by default. */
  sinks?: string[];
  /** Emit records of events already recorded too (replay re-emits a whole capture); off by default. */
  emitDuplicates?: boolean;
}

/** The governance pipeline: ingest → normalise → assess → record → emit. */
export async function createPipeline(options: CreatePipelineOptions): Promise<Pipeline> {
  const { host, db, logger } = options;
  const engine = options.engine ?? (await loadRiskEngine(host, options.loaded));
  const { sinks, delivery } = connectSinks(host, db, logger.child('outbox'), options.sinks);
  const failureCounts: Record<string, number> = {};

  const assess = async (event: ToolCallEvent): Promise<Assessment> => {
    const initial = engine.assess(event);
    try {
      return await runAssess(host.hooks, initial, event);
    } catch (error) {
      // A failing rule plugin must not lose the event: keep the engine's answer and say why.
      logger.warn(`assess hook failed for ${event.id}: ${(error as Error).message}`);
      return {
        ...initial,
        evidence: {
          ...initial.evidence,
          factors: [...(initial.evidence.factors ?? []), `assess hook failed: ${(error as Error).message}`],
        },
      };
    }
  };

  const emit = async (record: GovernanceRecord): Promise<EmitFailure[]> => {
    const failures = await runEmit(host.hooks, record);
    for (const failure of failures) {
      failureCounts[failure.sink] = (failureCounts[failure.sink] ?? 0) + 1;
      // The first failure of a sink is a warning; repeats go to DEBUG so a dead sink cannot flood the log.
      if (failureCounts[failure.sink] === 1)
        logger.warn(`sink '${failure.sink}' failed: ${failure.message} (further failures are counted)`);
      else logger.debug(`sink '${failure.sink}' failed: ${failure.message}`);
    }
    return failures;
  };

  const context = { db, logger, assess, emit, emitDuplicates: options.emitDuplicates === true };

  return {
    assess,
    async process(event, processOptions = {}) {
      const stored = db.records.find(event.id);
      if (stored) {
        if (event.result && !stored.event.result) db.records.complete(event.id, event.result);
        const sinkFailures = context.emitDuplicates ? await emit(stored) : [];
        return { record: stored, duplicate: true, sinkFailures };
      }
      const record: GovernanceRecord = { event, assessment: await assess(event) };
      const inserted = db.transaction(() => db.records.insert(record, processOptions.source ?? 'live'));
      // Lost a race with another writer: the stored record is the truth.
      if (!inserted) return { record: db.records.find(event.id) ?? record, duplicate: true, sinkFailures: [] };
      return { record, duplicate: false, sinkFailures: await emit(record) };
    },
    ingestFile: (adapter, file, ingestOptions) => ingestCapture(context, adapter, file, ingestOptions),
    sinkFailureCounts: () => ({ ...failureCounts }),
    async close() {
      const outcomes = await delivery.flush();
      for (const o of outcomes) {
        if (o.pending)
          logger.warn(
            `${o.pending} record(s) wait in the outbox for sink '` +
              `${o.sink}'${o.error ? ` (${o.error})` : ''}; the next watch or replay delivers ` +
              `them`,
          );
      }
      await Promise.all(sinks.map(async (sink) => sink.flush?.()));
      await Promise.all(sinks.map(async (sink) => sink.close?.()));
      return outcomes;
    },
  };
}
