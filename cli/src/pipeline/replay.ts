import { closeSync, openSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  AgentgovError,
  createPluginHost,
  GovernanceDb,
  governanceDbPath,
  loadConfig,
  PRIVATE_FILE_MODE,
  type FlushOutcome,
  type FrameworkAdapter,
  type Logger,
  type PluginHost,
  type SkipCounts,
} from '@agentgov/core';
import { bundledPlugins } from '../host.js';
import { CLI_PACKAGE_DIR } from '../package-info.js';
import { captureFiles } from './capture-files.js';
import { createPipeline } from './pipeline.js';
import { createProgress } from './progress.js';
import { terminalFreeSinks, withJsonlOutput } from './replay-config.js';

export interface ReplayOptions {
  path: string;
  adapter: string;
  output?: string | undefined;
  configPath?: string | undefined;
  logger: Logger;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** `--json`: the summary goes to stdout as one JSON object, and no sink writes to the terminal. */
  json?: boolean;
}

export interface ReplaySummary {
  adapter: string;
  files: number;
  events: number;
  duplicates: number;
  completed: number;
  skipped: SkipCounts;
  /** Files whose last line was incomplete and left for later. */
  incomplete: number;
  sinkFailures: number;
  db: string;
  /** Per outbox sink: delivered by the closing flush, and what still waits in the outbox. */
  outbox: FlushOutcome[];
}

/** The adapter named by `--adapter` (its mapping name or framework name); unknown names list the known ones. */
export function findAdapter(host: PluginHost, name: string): FrameworkAdapter {
  const adapters = host.registries.frameworks.values();
  const found = adapters.find((a) => a.adapter === name) ?? adapters.find((a) => a.name === name);
  if (found) return found;
  const known = adapters.map((a) => a.adapter).sort();
  throw new AgentgovError(
    'E_INVALID_ARGUMENT',
    `unknown adapter '${name}'; known adapters: ${known.join(', ') || '(none loaded)'}`,
    { adapter: name, known },
  );
}

function formatCounts(counts: SkipCounts): string {
  return Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([reason, n]) => `${reason}: ${n}`)
    .join(', ');
}

/** `agentgov replay`: every capture under PATH through the whole pipeline, once. */
export async function replay(options: ReplayOptions): Promise<ReplaySummary> {
  const output = options.output ? resolve(options.output) : undefined;
  // As every CLI host: a project's plugins and rule files load only once trusted, and what it may not set is said.
  const { applyProjectPolicy } = await import('../config-trust.js');
  const policy = applyProjectPolicy(loadConfig({ configPath: options.configPath }));
  let loaded = policy.loaded;
  for (const note of policy.ignored) options.logger.warn(note);
  for (const warning of loaded.warnings)
    options.logger.warn(`${warning.file ?? ''} ${warning.path}: ${warning.message}`);
  if (output) loaded = withJsonlOutput(loaded, output);
  const host = await createPluginHost({
    loaded,
    bundled: bundledPlugins(),
    resolveFrom: [CLI_PACKAGE_DIR],
    host: 'cli',
    logger: options.logger,
  });
  const adapter = findAdapter(host, options.adapter);
  const files = captureFiles(options.path);
  // --output names this run's result: start it empty (unless it splits per session).
  if (output && !output.includes('{')) closeSync(openSync(output, 'w', PRIVATE_FILE_MODE));
  const db = GovernanceDb.open(governanceDbPath(loaded));
  const summary: ReplaySummary = {
    adapter: adapter.adapter,
    files: files.length,
    events: 0,
    duplicates: 0,
    completed: 0,
    skipped: {},
    incomplete: 0,
    sinkFailures: 0,
    db: db.path,
    outbox: [],
  };
  try {
    const pipeline = await createPipeline({
      host,
      loaded,
      db,
      logger: options.logger,
      sinks: output ? ['jsonl'] : options.json ? terminalFreeSinks(host) : undefined,
      emitDuplicates: true,
    });
    const progress = createProgress(options.stderr, files.length);
    try {
      for (const file of files) {
        progress.tick(file);
        const report = await pipeline.ingestFile(adapter, file, { fromStart: true });
        summary.events += report.events;
        summary.duplicates += report.duplicates;
        summary.completed += report.completed;
        summary.sinkFailures += report.sinkFailures;
        if (report.pendingBytes > 0) summary.incomplete += 1;
        for (const [reason, n] of Object.entries(report.skipped))
          summary.skipped[reason] = (summary.skipped[reason] ?? 0) + n;
      }
    } finally {
      progress.done();
      summary.outbox = await pipeline.close();
    }
  } finally {
    db.close();
  }
  const skippedTotal = Object.values(summary.skipped).reduce((a, b) => a + b, 0);
  const lines = [
    `replayed ${summary.files} file(s) with ` +
      `${summary.adapter}: ${summary.events} new event(s), ` +
      `${summary.duplicates} already recorded`,
    `skipped: ${skippedTotal}${skippedTotal ? ` (${formatCounts(summary.skipped)})` : ''}; ` +
      `incomplete last lines left for later: ` +
      `${summary.incomplete}; sink failures: ` +
      `${summary.sinkFailures}`,
    `database: ${summary.db}${output ? `; records: ${output}` : ''}`,
    ...summary.outbox.map(
      (o) =>
        `sink ${o.sink}: ` +
        (o.pending ? `${o.pending} record(s) wait in the outbox${o.error ? ` (${o.error})` : ''}` : 'outbox delivered'),
    ),
  ];
  if (options.json) options.stdout.write(`${JSON.stringify({ ...summary, output: output ?? null }, null, 2)}\n`);
  else options.stderr.write(`${lines.join('\n')}\n`);
  return summary;
}
