import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LanguagePack } from '@agentgov/core';
import { packReferences, type PackedReferences } from './compact-references.js';
import { extractFile, sha1, type FileFacts } from './extract-file.js';
import { searchDocuments, type SearchDocuments } from './search-terms.js';

/** A NUL in the first 8000 bytes means binary, as git decides it. */
const BINARY_PROBE_BYTES = 8000;

/** One file to read, hash and (when its content changed) parse and extract. */
export interface ExtractJob {
  path: string;
  /** The stored content hash; a file with this hash again is reported `unchanged`, not parsed. */
  previousHash: string | null;
}

/** A file's facts as they cross a thread boundary: references packed, body identifiers already FTS documents. */
export interface PackedFileFacts extends Omit<FileFacts, 'references' | 'bodyIdentifiers'> {
  references: PackedReferences;
  search: SearchDocuments;
}

export type ExtractOutcome =
  | { status: 'unreadable' }
  | { status: 'binary' }
  | { status: 'unchanged'; hash: string }
  /** `facts` is null when no language pack handles the path. */
  | { status: 'extracted'; hash: string; lines: number; facts: PackedFileFacts | null }
  | { status: 'failed'; message: string };

function countLines(content: string): number {
  let lines = 1;
  for (let at = content.indexOf('\n'); at !== -1; at = content.indexOf('\n', at + 1)) lines++;
  return lines;
}

/**
 * Reads, hashes, parses and extracts one file. Runs on an index worker thread or, for language
 * packs without a worker module, on the main thread; plain data in and out either way.
 */
export function runExtractJob(root: string, job: ExtractJob, languages: readonly LanguagePack[]): ExtractOutcome {
  let buffer: Buffer;
  try {
    buffer = readFileSync(join(root, job.path));
  } catch {
    return { status: 'unreadable' };
  }
  if (buffer.subarray(0, BINARY_PROBE_BYTES).includes(0)) return { status: 'binary' };
  const content = buffer.toString('utf8');
  const hash = sha1(content);
  if (hash === job.previousHash) return { status: 'unchanged', hash };
  try {
    const facts = extractFile(job.path, content, languages);
    const lines = content.length === 0 ? 0 : countLines(content);
    if (!facts) return { status: 'extracted', hash, lines, facts: null };
    const { references, bodyIdentifiers, ...rest } = facts;
    const search = searchDocuments(
      job.path,
      rest.definitions.map((def) => ({ name: def.name, bodyIdentifiers: bodyIdentifiers.get(def.def_uid) ?? [] })),
    );
    return { status: 'extracted', hash, lines, facts: { ...rest, references: packReferences(references), search } };
  } catch (error) {
    return { status: 'failed', message: (error as Error).message };
  }
}
