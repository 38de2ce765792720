/**
 * `agentgov watch`: the pipeline in front of a running agent. Start-up order matters: the
 * database and the pipeline first, then the gate and the Score API start answering (the agent is
 * protected before a long backlog is caught up), then the tailer catches up and follows. Shutdown is the reverse and
 * waits for the read in progress, so its offset is stored.
 */
import { GovernanceDb, governanceDbPath, type Logger } from '@agentgov/core';
import { startCliHost } from '../host.js';
import { CLI_VERSION } from '../package-info.js';
import { createPipeline } from '../pipeline/pipeline.js';
import { loadRiskEngine } from '../pipeline/risk-engine.js';
import { selectFrameworks } from './frameworks.js';
import { ingestGateJournal } from './journal-ingest.js';
import { startLiveGate } from './live-gate.js';
import { untilShutdownSignal } from './signals.js';
import { CaptureTailer, type TailTarget } from './tailer.js';

export interface WatchOptions {
  configPath: string | undefined;
  frameworks: string | undefined;
  once: boolean;
  score: boolean;
  logger: Logger;
  stdout: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
}

export async function runWatch(options: WatchOptions): Promise<void> {
  const { logger } = options;
  const env = options.env ?? process.env;
  const shutdown = options.once ? undefined : untilShutdownSignal();
  const { loaded, host } = await startCliHost({ configPath: options.configPath }, logger);
  const requested = options.frameworks
    ? options.frameworks
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : loaded.config.governance.frameworks;
  const adapters = await selectFrameworks(host.registries.frameworks.values(), requested, env);
  if (!adapters.length) logger.warn('no framework detected: nothing to ingest (the gate and the Score API still run)');

  const db = GovernanceDb.open(governanceDbPath(loaded, undefined, env));
  const engine = await loadRiskEngine(host, loaded);
  const pipeline = await createPipeline({ host, loaded, db, logger: logger.child('pipeline'), engine });
  const targets: TailTarget[] = adapters.map((adapter) => ({
    name: adapter.name,
    roots: () => adapter.captureRoots(env),
    list: () => adapter.listCaptures(env),
    ingest: (file) => pipeline.ingestFile(adapter, file),
  }));
  const tailer = new CaptureTailer(targets, { logger: logger.child('tail') });
  const stops: (() => Promise<void>)[] = [];
  try {
    // What the gate decided in process while watch was away, before the captures that hold the same calls.
    const journal = await ingestGateJournal({ db, host, logger: logger.child('journal'), env });
    if (!shutdown) {
      await tailer.scan();
      options.stdout.write(
        `${JSON.stringify({ frameworks: adapters.map((a) => a.name), ...tailer.stats, gate_journal: journal })}\n`,
      );
      return;
    }
    const gate = await startLiveGate({ host, loaded, db, pipeline, logger, env });
    stops.push(() => gate.stop());
    // A gate that could not reach this watch (a restart, a refused socket) journals too: sweep it.
    const sweep = setInterval(
      () =>
        void ingestGateJournal({ db, host, logger: logger.child('journal'), env }).catch((error: Error) =>
          logger.error(`gate journal: ${error.message}`),
        ),
      5000,
    );
    sweep.unref();
    stops.push(async () => clearInterval(sweep));
    logger.info(`gate listening on ${gate.socket}`);
    if (options.score && loaded.config.score.enabled) {
      const { createScoreApp } = await import('../score-api/app.js');
      const { listenScoreApp, parseListen } = await import('../score-api/listen.js');
      const token = loaded.config.score.token;
      const app = createScoreApp({
        assess: (event) => pipeline.assess(event),
        version: CLI_VERSION,
        rulesLoaded: () => engine.rulesLoaded,
        token,
        logger: logger.child('score'),
      });
      const running = await listenScoreApp(app, parseListen(loaded.config.score.listen), token);
      stops.push(() => running.close());
      logger.info(`Score API listening on ${running.url}`);
    }
    await tailer.start();
    stops.push(() => tailer.stop());
    logger.info(
      `watching ${adapters.map((a) => a.name).join(', ') || 'no framework'} (${engine.rulesLoaded} rules loaded)`,
    );
    const signal = await shutdown;
    logger.info(`${signal}: shutting down`);
  } finally {
    for (const stop of stops.reverse())
      await stop().catch((error: Error) => logger.error(`shutdown: ${error.message}`));
    await tailer.stop();
    await pipeline.close();
    db.close();
    logger.info(
      `stopped: ${tailer.stats.events} events ingested from ` +
        `${tailer.stats.reads} reads${tailer.stats.failures ? `, ${tailer.stats.failures} failed reads` : ''}`,
    );
  }
}
