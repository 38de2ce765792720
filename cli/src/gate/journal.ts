/**
 * The gate journal: the decisions the gate made in process while `watch` was not there to record
 * them. Each decision is one file `$AGENTGOV_HOME/gate-journal/<event id>.json` (0600, in a 0700
 * directory), written to a temp name and renamed, so a reader only ever sees whole entries and
 * concurrent hooks never interleave. The next `watch` records every entry (keyed by the event's
 * stable id, so an entry already recorded is skipped, never duplicated) and removes it.
 * Node built-ins only: gate path.
 */
import { chmodSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Assessment, GateVerdict, ToolCallEvent } from '@agentgov/core';
import {
  agentgovHome,
  ensurePrivateHome,
  makeDirectories,
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
} from '@agentgov/core/paths';

export interface JournalEntry {
  event: ToolCallEvent;
  assessment: Assessment;
  verdict: GateVerdict;
}

export const gateJournalDir = (env: NodeJS.ProcessEnv = process.env): string => join(agentgovHome(env), 'gate-journal');

/** A file name for an event id: the id's safe characters, then its hex form when anything was unsafe. */
function fileNameOf(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9._-]/g, '_');
  return safe === id && !id.startsWith('.')
    ? `${id}.json`
    : `${safe.slice(0, 80)}.${Buffer.from(id).toString('hex').slice(0, 120)}.json`;
}

/**
 * The entry as JSON. Arguments nested past what JSON.stringify can recurse through (200,000 lists
 * in lists: the engine reads only their first levels and answers `ask`) are recorded as a note
 * saying so: the decision is kept, never lost to a stack overflow.
 */
function serializeEntry(entry: JournalEntry): string {
  try {
    return JSON.stringify(entry);
  } catch (error) {
    const note = `arguments not recorded: ${(error as Error).message}`;
    return JSON.stringify({ ...entry, event: { ...entry.event, arguments: { agentgov_unrecorded: note } } });
  }
}

export function appendJournal(entry: JournalEntry, env: NodeJS.ProcessEnv = process.env): string {
  ensurePrivateHome(env);
  const dir = gateJournalDir(env);
  makeDirectories(dir, PRIVATE_DIR_MODE);
  chmodSync(dir, PRIVATE_DIR_MODE);
  const file = join(dir, fileNameOf(entry.event.id));
  const temp = join(dir, `.${process.pid}.${Date.now()}.tmp`);
  writeFileSync(temp, `${serializeEntry(entry)}\n`, { mode: PRIVATE_FILE_MODE });
  renameSync(temp, file);
  return file;
}

export interface JournalRead {
  entries: { file: string; entry: JournalEntry }[];
  /** Files that could not be read or parsed: kept in place, counted. */
  unreadable: string[];
}

export function readJournal(env: NodeJS.ProcessEnv = process.env): JournalRead {
  const dir = gateJournalDir(env);
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
      .sort();
  } catch {
    return { entries: [], unreadable: [] };
  }
  const read: JournalRead = { entries: [], unreadable: [] };
  for (const name of names) {
    const file = join(dir, name);
    try {
      const entry = JSON.parse(readFileSync(file, 'utf8')) as JournalEntry;
      if (typeof entry?.event?.id !== 'string' || !entry.assessment || !entry.verdict)
        throw new Error('not a journal entry');
      read.entries.push({ file, entry });
    } catch {
      read.unreadable.push(file);
    }
  }
  return read;
}

export function removeJournalEntry(file: string): void {
  rmSync(file, { force: true });
}
