import type { ErrorCode } from '@agentgov/core';

/** Exit codes of every agentgov command (documented in docs/cli.md). */
export const EXIT = {
  /** Success. */
  OK: 0,
  /** The command ran and a check failed (invalid config, refused write, risky verdict in a check mode). */
  FAILED: 1,
  /** Usage error: unknown command, unknown or malformed option, missing argument. */
  USAGE: 2,
  /** Configuration or plugin error: the config file is malformed/invalid or a plugin failed to load. */
  CONFIG: 3,
  /** A required resource is missing or unreachable (database, capture path, port in use). */
  UNAVAILABLE: 4,
  /** Internal error: a bug; the message and the log say more. */
  INTERNAL: 70,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** What each exit code means, for docs/cli.md's table (generated from here: `npm run docs:generate`). */
export const EXIT_MEANINGS: Record<ExitCode, string> = {
  [EXIT.OK]: 'success (a long-running command: stopped by SIGINT or SIGTERM)',
  [EXIT.FAILED]:
    'the command ran and a check failed: `config validate` found an error, `config init` refused to overwrite, ' +
    '`init` found the hook broken, `doctor` found a hook that will not run, a sink failed in `replay`',
  [EXIT.USAGE]:
    'usage error: unknown command or option, malformed value, missing required option or argument, ' +
    'unknown agent, framework, adapter or scope (`E_INVALID_ARGUMENT`)',
  [EXIT.CONFIG]:
    'configuration or plugin error: a config file that does not exist, cannot be read, is malformed or invalid ' +
    '(`E_CONFIG_INVALID`), a plugin that failed to load (`E_PLUGIN_LOAD`, `E_PLUGIN_CONFLICT`), a non-loopback ' +
    'address without a token (`E_SCORE_TOKEN_REQUIRED`)',
  [EXIT.UNAVAILABLE]:
    'a required resource is missing or unreachable: a capture path, project directory or database ' +
    '(`E_NOT_FOUND`, `E_CAPTURE_UNREADABLE`, `E_DB_MISSING`, `E_DB_UNAVAILABLE`), an address or gate socket in use',
  [EXIT.INTERNAL]: 'internal error (a bug): the message says what failed; `--log-level DEBUG` adds the stack',
};

/** The exit code for an error code from the catalog. */
export function exitCodeForError(code: ErrorCode): ExitCode {
  switch (code) {
    case 'E_CONFIG_INVALID':
    case 'E_PLUGIN_LOAD':
    case 'E_PLUGIN_CONFLICT':
      return EXIT.CONFIG;
    case 'E_SCORE_TOKEN_REQUIRED':
      return EXIT.CONFIG;
    case 'E_INVALID_ARGUMENT':
      return EXIT.USAGE;
    case 'E_GATE_IN_USE':
    case 'E_ADDRESS_IN_USE':
      return EXIT.UNAVAILABLE;
    case 'E_NOT_FOUND':
    case 'E_INDEX_NOT_READY':
    case 'E_DB_MISSING':
    case 'E_DB_UNAVAILABLE':
    case 'E_CAPTURE_UNREADABLE':
      return EXIT.UNAVAILABLE;
    case 'E_INTERNAL':
    case 'E_PLUGIN_FAILED':
      return EXIT.INTERNAL;
    default:
      return EXIT.FAILED;
  }
}
