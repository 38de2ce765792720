import type { LogLevel } from '../logging/logger.js';

export type PluginConfigEntry = string | { plugin: string; options?: Record<string, unknown> };

/** The effective configuration: defaults with the chosen file merged over them. */
export interface AgentgovConfig {
  log_level: LogLevel;
  plugins: PluginConfigEntry[];
  bundled_plugins: 'auto' | 'all' | 'none';
  server: {
    repo: string | null;
    http: string | null;
    dev_mode: boolean;
    /** How far the server's heap may grow past its live size before V8 collects (percent; 0: V8 chooses). */
    heap_growth_percent: number;
    /** Resident memory (MB) the server keeps under by letting go of what it can rebuild and collecting; 0: off. */
    memory_target_mb: number;
    index: {
      max_file_bytes: number;
      exclude: string[];
      watch: boolean;
      watch_debounce_ms: number;
      wait_ms: number;
      text_cache_mb: number;
      known_names_max: number;
      /** Seconds the definition graph stays in memory after a call last asked for it. */
      graph_keep_seconds: number;
    };
    refactor: { preview_idle_minutes: number };
    impact: { language_service_ms: number };
    /**
     * The background test scheduler: started by the first test-impact call (`on-demand`) or when serve starts
     * (`startup`); child niceness 0..19.
     */
    test_impact: { scheduler: 'on-demand' | 'startup'; niceness: number };
    /** `checkpoint`: how long git's hooks (pre-commit, commit-msg, pre-push, …) may run before they are stopped. */
    checkpoint: { hook_timeout_s: number };
  };
  governance: { frameworks: string[]; db: string | null };
  risk: { rules: string[] };
  /** `deadline_ms`: the hard deadline of one gate call, after which it answers the fail-closed way (docs/risk.md). */
  gate: { on_unavailable: 'ask' | 'deny' | 'allow'; timeout_ms: number; deadline_ms: number };
  score: { enabled: boolean; listen: string; token: string | null };
  dashboard: { listen: string; token: string | null };
  /** Unknown top-level keys are kept (and warned about), never silently dropped. */
  [extra: string]: unknown;
}
