import type { ToolCallEvent } from './events.js';

/** What `detect` reports for one installed framework. */
export interface DetectedFramework {
  name: string;
  path: string;
  adapter: string;
  ingestion_mode: string;
}

/** Counted, never silent: everything a parser skipped, by reason. */
export type SkipCounts = Record<string, number>;

export interface CaptureParseResult {
  events: ToolCallEvent[];
  skipped: SkipCounts;
  /** Bytes of the input fully consumed; a truncated last line is not consumed. */
  consumedBytes: number;
}

export interface CaptureParseContext {
  /** Path of the capture file being parsed. */
  file: string;
  /** State carried between chunks of the same file (pending tool calls, session ids). */
  state?: Record<string, unknown>;
}

/** Installs a governance hook into an agent's project settings (used by `init`). */
export interface HookInstaller {
  agent: string;
  install(projectDir: string, gateCommand: string): Promise<{ changed: boolean; settingsFile: string }>;
}

/** A coding-agent framework: detection, capture locations and the capture parser. */
export interface FrameworkAdapter {
  /** Framework name, e.g. `agentx-code`. */
  name: string;
  /** Mapping name used by `replay --adapter`. */
  adapter: string;
  ingestionMode: string;
  detect(env: NodeJS.ProcessEnv): Promise<DetectedFramework | null>;
  /** Capture files currently present for this framework. */
  listCaptures(env: NodeJS.ProcessEnv): Promise<string[]>;
  parse(text: string, context: CaptureParseContext): CaptureParseResult;
  hookInstaller?: HookInstaller;
}
