import type { Assessment, ToolCallEvent } from './events.js';

/** One event with its assessment, as recorded and emitted by the governance pipeline. */
export interface GovernanceRecord {
  event: ToolCallEvent;
  assessment: Assessment;
}

/** A destination for governance records. A failing sink is reported and never stops the others. */
export interface Sink {
  name: string;
  write(record: GovernanceRecord): Promise<void>;
  close?(): Promise<void>;
}
