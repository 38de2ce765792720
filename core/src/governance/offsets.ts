import { eq } from 'drizzle-orm';
import { ingestOffsets, type GovernanceOrm } from './schema.js';

/** How far one capture file has been ingested. */
export interface IngestOffset {
  file: string;
  adapter: string;
  /** Bytes consumed: everything before is recorded, everything after is not. */
  offset: number;
  /** File size and inode when the offset was stored; a smaller size or another inode means rotation/truncation. */
  size: number;
  inode: number;
  /** Lines skipped by reason in the content consumed so far (since offset 0). */
  skipped: Record<string, number>;
  /** Events recorded from this file so far. */
  events: number;
  /** Hash of the file's head and of the bytes just before `offset`; null for offsets stored before it existed. */
  fingerprint: string | null;
  /** Times the stored offset was discarded, by reason (`rotated`, `truncated`, `rewritten`). */
  resets: Record<string, number>;
  /** Lines skipped by reason in the contents this path held before its last reset (kept, so no skip is forgotten). */
  skippedBefore: Record<string, number>;
  updatedAt: string;
}

export type IngestOffsetInput = Omit<IngestOffset, 'updatedAt' | 'fingerprint' | 'resets' | 'skippedBefore'> &
  Partial<Pick<IngestOffset, 'updatedAt' | 'fingerprint' | 'resets' | 'skippedBefore'>>;

/** Per-file ingest offsets. `set` belongs in the same transaction as the events it covers. */
export class OffsetStore {
  constructor(private readonly orm: GovernanceOrm) {}

  get(file: string): IngestOffset | undefined {
    return this.orm.select().from(ingestOffsets).where(eq(ingestOffsets.file, file)).get();
  }

  all(): IngestOffset[] {
    return this.orm.select().from(ingestOffsets).orderBy(ingestOffsets.file).all();
  }

  set(offset: IngestOffsetInput): void {
    const row = {
      fingerprint: null,
      resets: {},
      skippedBefore: {},
      ...offset,
      updatedAt: offset.updatedAt ?? new Date().toISOString(),
    };
    this.orm.insert(ingestOffsets).values(row).onConflictDoUpdate({ target: ingestOffsets.file, set: row }).run();
  }

  delete(file: string): void {
    this.orm.delete(ingestOffsets).where(eq(ingestOffsets.file, file)).run();
  }
}
