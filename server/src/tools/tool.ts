import type { AgentgovConfig, ErrorCode, Logger, PluginHost } from '@agentgov/core';
import type { z } from 'zod';
import type { RepoPath } from '../paths/repo-path.js';
import type { RepositoryIndex } from '../index/repository-index.js';

/** The six tool groups of the spec, in the order `describe` lists them. */
export const TOOL_GROUPS = ['Introspection', 'Discovery', 'Analysis', 'Test Impact', 'Refactor', 'Commit'] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number];

/** Per MCP session, mutable by tools: `recon` sets both fields; refactors read them. */
export interface SessionState {
  /** Research-only session: mutating tools answer `E_READ_ONLY_SESSION`. */
  readOnly: boolean;
  /** A `recon` ran in this session (refactors require it: `E_RECON_REQUIRED`). */
  didRecon: boolean;
}

/** Reports progress of a long tool call to the client, when it passed a progressToken (no-op otherwise). */
export type ProgressReporter = (done: number, total: number | undefined, message?: string) => Promise<void>;

/** What a tool handler gets besides its validated arguments. */
export interface ToolContext {
  /** Absolute repository root (real path). */
  repoRoot: string;
  /** The repository index. For a tool with `needsIndex`, the handler only runs once it is ready. */
  index: RepositoryIndex;
  /** Loaded plugins: hooks and registries (retrievers, languages, linters, test runners, ...). */
  host: PluginHost;
  session: SessionState;
  config: AgentgovConfig;
  logger: Logger;
  progress: ProgressReporter;
  /** True when the server runs with `--dev-mode`. */
  devMode: boolean;
  /** The tools this server lists (dev-only ones only in dev mode); `describe` reads them. */
  tools: readonly AnyToolDefinition[];
  /**
   * Every path argument goes through this: refuses paths outside the repo with `E_PATH_OUTSIDE_REPO` (`..`, absolute,
   * symlinks).
   */
  resolveRepoPath(path: string): RepoPath;
  /** Aborted when the client cancels the call or the session closes. */
  signal: AbortSignal;
}

/**
 * One tool: its documentation (served by `describe` and tools/list, from this one place), its
 * strict zod input schema, and its handler. The handler returns the structured result; `render`
 * turns it into the text the agent reads (the result carries both).
 */
export interface ToolDefinition<S extends z.ZodTypeAny = z.ZodTypeAny, R extends object = Record<string, unknown>> {
  name: string;
  group: ToolGroup;
  /** Never changes the repository or anything else (MCP `readOnlyHint`); otherwise `destructiveHint`. */
  readOnly: boolean;
  /**
   * For a tool that is not read-only: whether these arguments would change the repository (a
   * research-only session refuses only those calls). Absent: every call of the tool would.
   */
  mutates?(args: z.output<S>): boolean;
  /** Listed only when the server runs with `--dev-mode`. */
  devOnly?: boolean;
  /**
   * What tools/list says (every agent session pays for it): what the tool does and when to use it, in
   * a few lines, with the words an agent would use to ask for it. Everything longer goes in the fields below,
   * which `describe` serves.
   */
  brief: string;
  /** What it does, in full. */
  description: string;
  /**
   * A `z.object({...}).strict()` with a `.describe()` and `.default()` on every parameter. tools/list shows a
   * parameter's first sentence, `describe` all of it.
   */
  inputSchema: S;
  /** What the result contains, in prose. */
  returns: string;
  /** The structured result's shape, published as the MCP `outputSchema` (with the error envelope beside it). */
  outputSchema?: z.AnyZodObject;
  whenToUse: string;
  related: string[];
  /** Catalog codes it may answer besides the generic ones (E_INVALID_ARGUMENT, E_INTERNAL). */
  errors: ErrorCode[];
  /** An example call's arguments. */
  example: Record<string, unknown>;
  /** Answers `E_INDEX_NOT_READY` (with progress) until the first index build finished. */
  needsIndex: boolean;
  /**
   * Arguments holding repository paths (a string or a list of strings): refused with `E_PATH_OUTSIDE_REPO` before
   * anything else runs, even while indexing.
   */
  pathArguments?: string[];
  handler(args: z.output<S>, ctx: ToolContext): Promise<R>;
  /** Runs once after the first index build (off the request path) to build caches, so the first call is fast. */
  warm?(index: RepositoryIndex): void;
  /** The readable rendering of a result; a generic one is used when absent. */
  render?(result: R): string;
}

/** Keeps a definition's argument type tied to its schema; use for every tool. */
export function defineTool<S extends z.ZodTypeAny, R extends object>(
  definition: ToolDefinition<S, R>,
): ToolDefinition<S, R> {
  return definition;
}

/** A definition with its types erased, as stored in the tool list. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolDefinition = ToolDefinition<any, any>;
