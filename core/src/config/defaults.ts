import type { AgentgovConfig } from './types.js';

export function defaultConfig(): AgentgovConfig {
  return {
    log_level: 'INFO',
    plugins: [],
    bundled_plugins: 'auto',
    server: {
      repo: null,
      http: null,
      dev_mode: false,
      heap_growth_percent: 0,
      memory_target_mb: 600,
      index: {
        max_file_bytes: 1048576,
        exclude: [],
        watch: true,
        watch_debounce_ms: 150,
        wait_ms: 10000,
        text_cache_mb: 64,
        known_names_max: 50000,
        graph_keep_seconds: 30,
      },
      refactor: { preview_idle_minutes: 30 },
      impact: { language_service_ms: 5000 },
      test_impact: { scheduler: 'on-demand', niceness: 10 },
      checkpoint: { hook_timeout_s: 120 },
    },
    governance: { frameworks: [], db: null },
    risk: { rules: [] },
    gate: { on_unavailable: 'ask', timeout_ms: 3000, deadline_ms: 30000 },
    score: { enabled: true, listen: 'localhost:7331', token: null },
    dashboard: { listen: 'localhost:7332', token: null },
  };
}
