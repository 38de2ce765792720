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
  updatedAt: string;
}

/** Per-file ingest offsets. `set` belongs in the same transaction as the events it covers. */
export class OffsetStore {
  constructor(private readonly orm: GovernanceOrm) {}

  get(file: string): IngestOffset | undefined {
    return this.orm.select().from(ingestOffsets).where(eq(ingestOffsets.file, file)).get();
  }

  all(): IngestOffset[] {
    return this.orm.select().from(ingestOffsets).orderBy(ingestOffsets.file).all();
  }

  set(offset: Omit<IngestOffset, 'updatedAt'> & { updatedAt?: string }): void {
    const row = { ...offset, updatedAt: offset.updatedAt ?? new Date().toISOString() };
    this.orm.insert(ingestOffsets).values(row).onConflictDoUpdate({ target: ingestOffsets.file, set: row }).run();
  }

  delete(file: string): void {
    this.orm.delete(ingestOffsets).where(eq(ingestOffsets.file, file)).run();
  }
}
