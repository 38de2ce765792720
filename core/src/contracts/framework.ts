import type { ToolCallEvent, ToolCallResult } from './events.js';
import type { GateHookFormat } from './gate-hook.js';

/** What `detect` reports for one installed framework. */
export interface DetectedFramework {
  name: string;
  path: string;
  adapter: string;
  ingestion_mode: string;
}

/** Counted, never silent: everything a parser skipped, by reason. */
export type SkipCounts = Record<string, number>;

/** A result whose call is not in this chunk: the call was ingested from an earlier chunk. */
export interface CaptureCompletion {
  event_id: string;
  result: ToolCallResult;
}

export interface CaptureParseResult {
  /** Tool calls found, in file order; a call whose result is in the same chunk carries it. */
  events: ToolCallEvent[];
  completions: CaptureCompletion[];
  skipped: SkipCounts;
  /** Lines read (complete lines, blank ones included). */
  lines: number;
  /** UTF-8 bytes of the input fully consumed; a truncated last line is not consumed. */
  consumedBytes: number;
}

export interface CaptureParseContext {
  /** Path of the capture file being parsed. */
  file: string;
  /** State carried between chunks of the same file (pending tool calls, session ids). */
  state?: Record<string, unknown>;
  /**
   * Byte offset in the file at which `text` starts (0 for a whole document). A format whose calls
   * carry no id of their own builds stable ids from it: an append-only capture never moves a line.
   */
  offset?: number;
}

/** Where `init` writes: a settings scope of the agent (agentx-code: `project` = shared, `local` = personal). */
export interface HookInstallOptions {
  scope?: string;
  /** The environment the agent runs with (its home and config directories, opt-in variables); default process.env. */
  env?: NodeJS.ProcessEnv;
}

/**
 * One condition the agent itself needs before it calls an installed hook: the hook file where this agent
 * version reads it, the agent's trust state for the project and the hook, an opt-in variable.
 */
export interface HookActivationCheck {
  /** Short name of the condition, e.g. `hooks file read in headless mode`, `workspace trusted`. */
  name: string;
  /** `ok`: the agent will call the hook; `fail`: it will not; `unknown`: the agent's state cannot be read. */
  status: 'ok' | 'fail' | 'unknown';
  /** What was found, with the file or variable it was read from. */
  detail: string;
  /** The exact step the user still has to take when the status is not `ok`. */
  remedy?: string;
}

/**
 * Installs a governance hook into an agent's settings (used by `init` and `doctor`). The host
 * builds the command (`<node> <agentgov> gate --stdin --format <format>`), runs it on the format's
 * probe before reporting success, and never switches on the agent's name.
 */
export interface HookInstaller {
  agent: string;
  /** The `gate --format` whose payload and answer this agent's hook speaks (see GateHookFormat). */
  format: string;
  /** Settings scopes `init --scope` accepts; the first is the default. */
  scopes: string[];
  /**
   * Writes a PreToolUse hook running `gateCommand` into the scope's settings file, keeping every
   * other setting. Idempotent: when the hook is already there nothing is written (`changed: false`);
   * an agentgov gate hook written earlier (another path) is replaced, not duplicated.
   * A settings file that is not valid JSON is left untouched: throws `E_SETTINGS_INVALID`.
   */
  install(
    projectDir: string,
    gateCommand: string,
    options?: HookInstallOptions,
  ): Promise<{ changed: boolean; settingsFile: string }>;
  /** The agentgov gate commands installed in the scope's settings file (what `doctor` re-checks). */
  installed(projectDir: string, options?: HookInstallOptions): Promise<{ settingsFile: string; commands: string[] }>;
  /** The agent versions whose hook locations and trust steps this installer was tested with (docs, `doctor`). */
  testedWith?: string;
  /**
   * What the agent needs, beyond agentgov's own hook answering, before it calls the hook installed in the
   * scope. `doctor` reports every `fail` as a failure with its remedy (an installed-but-inert hook is never
   * `ok`); `init` prints every check that is not `ok` as a step the user still has to take, and never calls
   * an install verified while one fails.
   */
  activation?(projectDir: string, options?: HookInstallOptions): Promise<HookActivationCheck[]>;
}

/** How an MCP client starts a stdio server: `agentgov serve` as `init --mcp` registers it. */
export interface McpServerEntry {
  command: string;
  args: string[];
  /**
   * Environment the agent must give the server (`AGENTGOV_HOME`, `AGENTGOV_CONFIG` as set when `init --mcp`
   * ran): agents start MCP servers with a filtered environment (Codex), so agentgov's files would move.
   */
  env?: Record<string, string>;
}

/** Registers `agentgov serve` in an agent's own MCP server configuration (`init AGENT --mcp`). */
export interface McpRegistrar {
  /** Configuration scopes `init --mcp --scope` accepts; the first is the default. */
  scopes: string[];
  /**
   * Adds (or updates) the `agentgov` server in the scope's configuration file, keeping everything
   * else in it. Idempotent: when the same entry is there nothing is written (`changed: false`). A
   * file that does not parse is left untouched: throws `E_SETTINGS_INVALID`.
   */
  register(
    projectDir: string,
    server: McpServerEntry,
    options: { scope: string; env: NodeJS.ProcessEnv },
  ): Promise<{ changed: boolean; configFile: string }>;
  /**
   * What the user still has to do before the agent starts the registered server and lets its model call
   * the tools (a trust step, a permission flag), one sentence each; `init --mcp` prints them.
   */
  remainingSteps?(projectDir: string, options: { scope: string; env: NodeJS.ProcessEnv }): string[];
}

/** A capture parser (`FrameworkAdapter.parse`): a chunk of a capture file → the calls, completions and skips in it. */
export type CaptureParser = (text: string, context: CaptureParseContext) => CaptureParseResult;

/** A coding-agent framework: detection, capture locations and the capture parser. */
export interface FrameworkAdapter {
  /** Framework name, e.g. `agentx-code`. */
  name: string;
  /** Mapping name used by `replay --adapter`. */
  adapter: string;
  ingestionMode: string;
  detect(env: NodeJS.ProcessEnv): Promise<DetectedFramework | null>;
  /** Directories under which capture files appear (what `watch` watches). */
  captureRoots(env: NodeJS.ProcessEnv): string[];
  /** Capture files currently present for this framework, sorted. */
  listCaptures(env: NodeJS.ProcessEnv): Promise<string[]>;
  /**
   * Parses a chunk of a capture that starts at a line boundary. Never throws on bad input: every
   * line or block it cannot use is counted in `skipped` by reason.
   */
  parse(text: string, context: CaptureParseContext): CaptureParseResult;
  hookInstaller?: HookInstaller;
  mcpRegistrar?: McpRegistrar;
  /**
   * The hook protocol of this agent (`gate --format <name>`): how its hook payload is read and the
   * answer written. The `hookInstaller`'s `format` names it.
   */
  gateFormat?: GateHookFormat;
}
