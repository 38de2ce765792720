/**
 * `watch` records what the gate decided in process while it was away (gate/journal.ts): each
 * entry becomes a gate decision in system.db and goes to the sinks, then its file is removed. An
 * event already in system.db (an entry recorded before a crash, or a call the gate answered twice)
 * is not recorded again: event ids are stable, so nothing is lost and nothing duplicated.
 */
import { runEmit, type GovernanceDb, type Logger, type PluginHost } from '@agentgov/core';
import { readJournal, removeJournalEntry } from '../gate/journal.js';

export interface JournalIngestReport {
  recorded: number;
  already: number;
  unreadable: number;
}

export async function ingestGateJournal(options: {
  db: GovernanceDb;
  host: PluginHost;
  logger: Logger;
  env: NodeJS.ProcessEnv;
}): Promise<JournalIngestReport> {
  const { db, host, logger, env } = options;
  const { entries, unreadable } = readJournal(env);
  const report: JournalIngestReport = { recorded: 0, already: 0, unreadable: unreadable.length };
  for (const file of unreadable) logger.warn(`gate journal entry ${file} cannot be read; it is kept for inspection`);
  for (const { file, entry } of entries) {
    if (db.records.find(entry.event.id)) {
      report.already += 1;
    } else {
      db.recordGateDecision(entry);
      report.recorded += 1;
      for (const failure of await runEmit(host.hooks, { event: entry.event, assessment: entry.assessment }))
        logger.warn(`sink '${failure.sink}' failed on a journaled gate decision: ${failure.message}`);
    }
    removeJournalEntry(file);
  }
  if (report.recorded || report.already || report.unreadable)
    logger.info(
      `gate journal: ${report.recorded} decisions recorded, ` +
        `${report.already} already known, ${report.unreadable} unreadable`,
    );
  return report;
}
