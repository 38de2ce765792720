/** Files indexed so far out of the total of the current build. */
export interface IndexProgress {
  done: number;
  total: number;
}

/**
 * The part of the repository index the server infrastructure relies on: readiness and progress.
 * Tools receive the full index (see `ToolContext.index`).
 */
export interface ToolIndex {
  isReady(): boolean;
  progress(): IndexProgress;
  on(event: 'progress', listener: (progress: IndexProgress) => void): unknown;
  off?(event: 'progress', listener: (progress: IndexProgress) => void): unknown;
  close?(): Promise<void> | void;
}

/** Stands in while no index is attached (the server still answers `describe`; index-backed tools answer E_INDEX_NOT_READY). */
export const DETACHED_INDEX: ToolIndex = {
  isReady: () => false,
  progress: () => ({ done: 0, total: 0 }),
  on: () => undefined,
};
