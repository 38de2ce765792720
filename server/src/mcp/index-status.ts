import type { IndexProgress } from '../index/types.js';

/** The part of the repository index the server infrastructure relies on: readiness and progress events. */
export interface IndexStatus {
  readonly ready: Promise<void>;
  isReady(): boolean;
  progress(): IndexProgress;
  on(event: 'progress', listener: (progress: IndexProgress) => void): unknown;
  off(event: 'progress', listener: (progress: IndexProgress) => void): unknown;
}

/** The index tools receive (`ToolContext.index`): the full repository index. */
export type ToolIndex = import('../index/repository-index.js').RepositoryIndex;
