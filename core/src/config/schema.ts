/**
 * The configuration schema: one JSON Schema for the whole file. It is published as
 * docs/config.schema.json (editor completion) and is what `config validate` checks against.
 * Unknown keys inside a section are errors; unknown top-level keys are warnings (with the nearest
 * valid key), so a config written for a newer agentgov still loads.
 */
const logLevel = {
  type: 'string',
  enum: ['DEBUG', 'INFO', 'WARNING', 'ERROR'],
  description: 'Logging verbosity.',
} as const;
const hostPort = {
  type: 'string',
  pattern: '^(\\[[0-9a-fA-F:.]+\\]|[A-Za-z0-9.-]+):[0-9]{1,5}$',
  description: 'HOST:PORT',
} as const;

const pluginEntry = {
  description: 'A plugin: a package name or a path (relative to this file), optionally with options.',
  if: { type: 'object' },
  then: {
    type: 'object',
    additionalProperties: false,
    required: ['plugin'],
    properties: {
      plugin: { type: 'string', minLength: 1, description: 'Package name or path of the plugin module.' },
      options: { type: 'object', description: "Options validated against the plugin's own schema." },
    },
  },
  else: { type: 'string', minLength: 1 },
} as const;

export const CONFIG_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://agentgov.dev/config.schema.json',
  title: 'agentgov configuration',
  type: 'object',
  properties: {
    log_level: { ...logLevel, default: 'INFO' },
    plugins: {
      type: 'array',
      items: pluginEntry,
      default: [],
      description: 'Plugins to load. When empty, every bundled plugin loads.',
    },
    bundled_plugins: {
      type: 'string',
      enum: ['auto', 'all', 'none'],
      default: 'auto',
      description:
        '`auto`: load every bundled plugin only when `plugins` is empty; `all`: always ' +
        'load them (entries in `plugins` then configure them); `none`: never.',
    },
    server: {
      type: 'object',
      additionalProperties: false,
      description: 'The MCP tool server (`agentgov serve`).',
      properties: {
        repo: {
          type: ['string', 'null'],
          default: null,
          description: 'Repository to index; the current directory when null.',
        },
        http: {
          anyOf: [hostPort, { type: 'null' }],
          default: null,
          description: 'Serve Streamable HTTP on this loopback address instead of stdio.',
        },
        dev_mode: { type: 'boolean', default: false, description: 'Expose dev-only tools such as recon_raw_signals.' },
        heap_growth_percent: {
          type: 'integer',
          minimum: 0,
          maximum: 300,
          default: 0,
          description:
            "How far the server's JavaScript heap may grow past what is live before V8 collects it, in " +
            'percent: lower keeps peak memory down at the cost of more frequent collection (30 took a ' +
            '7,600-file server from ~930 to ~750 MB and its recon p95 from ~330 to ~500 ms); 0 leaves it to V8 ' +
            '(up to four times the live size). `node --heap-growing-percent` on the command line wins.',
        },
        memory_target_mb: {
          type: 'integer',
          minimum: 0,
          default: 600,
          description:
            'Resident memory (MB) the server keeps under: when a tool call ends above 90 % of it, the server ' +
            'lets go of the definition graph (when no call asked for it in the last 5 s; built again when asked ' +
            'for) and collects its garbage once, at most every 10 s and less often while that does not bring it ' +
            'under; a one-time build (the first recon after the index changed) that starts above 75 % of it lets ' +
            'go of the definition graph first, however recently it was used; 0 turns this off.',
        },
        index: {
          type: 'object',
          additionalProperties: false,
          properties: {
            max_file_bytes: {
              type: 'integer',
              minimum: 1,
              default: 1048576,
              description: 'Files larger than this are skipped (and counted).',
            },
            exclude: {
              type: 'array',
              items: { type: 'string' },
              default: [],
              description: 'Extra globs to leave out of the index (docs/config.md, "Globs"); `!pattern` re-includes.',
            },
            watch: { type: 'boolean', default: true, description: 'Re-index changed files while the server runs.' },
            watch_debounce_ms: {
              type: 'integer',
              minimum: 0,
              default: 150,
              description: 'Debounce of the file watcher.',
            },
            wait_ms: {
              type: 'integer',
              minimum: 0,
              default: 10000,
              description:
                'How long an index-backed tool call waits for the first index build (sending ' +
                'progress) before answering E_INDEX_NOT_READY; `serve --wait-for-index` overrides ' +
                'it.',
            },
            text_cache_mb: {
              type: 'number',
              exclusiveMinimum: 0,
              default: 64,
              description:
                'File text (in millions of characters) recon keeps in memory between calls; ' +
                'the least recently used files are dropped first and read again when needed.',
            },
            known_names_max: {
              type: 'integer',
              minimum: 1,
              default: 50000,
              description:
                'How many names recon remembers, between calls, as present in the code or not; ' +
                'the least recently asked are forgotten first and looked up again when needed.',
            },
            graph_keep_seconds: {
              type: 'number',
              minimum: 0,
              default: 30,
              description:
                'How long the definition graph (blast_radius, graph tools at definition level, recon_scout) ' +
                'stays in memory after a call last asked for it; then it is let go and built again when asked ' +
                'for (~117 MB held and 3-4 s to build on a 7,600-file tree); 0 lets it go when the call that ' +
                'asked is done.',
            },
          },
        },
        refactor: {
          type: 'object',
          additionalProperties: false,
          properties: {
            preview_idle_minutes: {
              type: 'number',
              exclusiveMinimum: 0,
              default: 30,
              description:
                'A refactor preview not used for this long expires (refactor_commit then answers E_PREVIEW_NOT_FOUND).',
            },
          },
        },
        impact: {
          type: 'object',
          additionalProperties: false,
          properties: {
            language_service_ms: {
              type: 'integer',
              minimum: 0,
              default: 5000,
              description:
                'How long recon_impact lets a language service (TypeScript) search for references ' +
                'before answering from the index alone; 0 never asks one.',
            },
          },
        },
        test_impact: {
          type: 'object',
          additionalProperties: false,
          properties: {
            scheduler: {
              type: 'string',
              enum: ['on-demand', 'startup'],
              default: 'on-demand',
              description:
                'When the background test scheduler starts: at the first test-impact call ' +
                'of a read-write session (`on-demand`), or when serve starts (`startup`). ' +
                "It runs the project's tests, so it executes project code.",
            },
            niceness: {
              type: 'integer',
              minimum: 0,
              maximum: 19,
              default: 10,
              description: 'Process priority of the test processes the scheduler starts (0 normal, 19 lowest).',
            },
          },
        },
        checkpoint: {
          type: 'object',
          additionalProperties: false,
          properties: {
            hook_timeout_s: {
              type: 'number',
              exclusiveMinimum: 0,
              default: 120,
              description:
                'How long one git command of a checkpoint commit or push, with the hooks ' +
                'it runs (pre-commit, commit-msg, pre-push, …), may take before it is stopped ' +
                '(its whole process group killed) and reported as E_COMMIT_FAILED or E_PUSH_FAILED.',
            },
          },
        },
      },
    },
    governance: {
      type: 'object',
      additionalProperties: false,
      description: 'The governance pipeline (`watch`, `replay`, `status`).',
      properties: {
        frameworks: {
          type: 'array',
          items: { type: 'string' },
          default: [],
          description: 'Frameworks to watch; all detected when empty.',
        },
        db: {
          type: ['string', 'null'],
          default: null,
          description: 'Governance database; $AGENTGOV_HOME/system.db when null.',
        },
      },
    },
    risk: {
      type: 'object',
      additionalProperties: false,
      description: 'The risk engine.',
      properties: {
        rules: {
          type: 'array',
          items: { type: 'string' },
          default: [],
          description: 'Extra YAML rule files (paths relative to this file).',
        },
      },
    },
    gate: {
      type: 'object',
      additionalProperties: false,
      description: 'The gate (`agentgov gate` and the IPC server inside `watch`).',
      properties: {
        on_unavailable: {
          type: 'string',
          enum: ['ask', 'deny', 'allow'],
          default: 'ask',
          description: 'Verdict when no pipeline answers or the request cannot be relayed.',
        },
        timeout_ms: {
          type: 'integer',
          minimum: 1,
          default: 3000,
          description: 'How long `gate` waits for the pipeline.',
        },
        deadline_ms: {
          type: 'integer',
          minimum: 1,
          default: 30000,
          description:
            'Hard deadline of one gate call (reading the event, assessing, answering); ' +
            'past it the gate answers deny or ask per on_unavailable, never allow. A ' +
            'project config may only lower it.',
        },
      },
    },
    score: {
      type: 'object',
      additionalProperties: false,
      description: 'The read-only Score API.',
      properties: {
        enabled: { type: 'boolean', default: true, description: 'Start the Score API inside `watch`.' },
        listen: { ...hostPort, default: 'localhost:7331' },
        token: {
          type: ['string', 'null'],
          default: null,
          description: 'Bearer token; required to bind a non-loopback address.',
        },
      },
    },
    dashboard: {
      type: 'object',
      additionalProperties: false,
      description: 'The read-only dashboard (`agentgov dashboard`).',
      properties: {
        listen: { ...hostPort, default: 'localhost:7332' },
        token: {
          type: ['string', 'null'],
          default: null,
          description:
            'Token (bearer header, or once through /login?token=…); required to bind a non-loopback address.',
        },
      },
    },
  },
} as const;

/** Keys allowed at the top level. */
export const TOP_LEVEL_KEYS = Object.keys(CONFIG_SCHEMA.properties);
